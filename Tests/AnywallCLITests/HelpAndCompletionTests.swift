import Foundation
import TestSupport
import Testing

@Suite("Help, version and shell completions")
struct HelpAndCompletionTests {
    @Test("--help lists every command and exits 0")
    func help() throws {
        let run = try Sandbox().run(["--help"])
        #expect(run.status == Exit.success)
        for command in ["signup", "login", "logout", "whoami", "post", "nearby", "where", "settings", "config", "import", "passwd"] {
            #expect(run.stdout.contains("  \(command)"), "\(command) missing from --help")
        }
        #expect(try Sandbox().run(["--version"]).stdout == "0.1.0\n")
    }

    @Test("completions/ matches what the current binary generates", arguments: [("bash", "anywall.bash"), ("zsh", "_anywall"), ("fish", "anywall.fish")])
    func completions(_ shell: String, _ file: String) throws {
        let generated = try Sandbox().run(["--generate-completion-script", shell])
        #expect(generated.status == Exit.success && generated.stdout.contains("nearby"))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let committed = try String(contentsOf: root.appendingPathComponent("completions/\(file)"), encoding: .utf8)
        #expect(committed == generated.stdout, "completions/\(file) is stale: run scripts/completions")
    }
}
