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

    @Test("completions offer setting keys and their values, cache policies, and files after --nmea")
    func completionCandidates() throws {
        let script = try Sandbox().run(["--generate-completion-script", "bash"]).stdout
        let keys = "'radius'$'\\n''units'$'\\n''location'$'\\n''format'$'\\n''server'$'\\n''app-id'$'\\n''rest-key'$'\\n''live-query-url'$'\\n''timeout'"
        for command in ["_anywall_settings_set()", "_anywall_settings_unset()"] {
            let body = try #require(script.range(of: command).map { script[$0.upperBound...].components(separatedBy: "\n}\n")[0] }, "\(command)")
            #expect(body.contains(keys), "\(command): \(body)")
        }
        #expect(script.contains("'--cache-policy')\n        __anywall_add_completions -W 'ignore-cache'"), "cache policies")
        #expect(script.contains("'--nmea')\n        __anywall_add_completions -f"), "files after --nmea")
        // What the shell asks the binary for the value of `settings set KEY`.
        func values(_ key: String) throws -> [String] {
            let run = try Sandbox().run(["---completion", "settings", "set", "--", "positional@1", "4", "0",
                                         "anywall", "settings", "set", key, ""])
            return run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try values("radius") == ["250ft", "2000ft", "1000m", "5000ft"])
        #expect(try values("units") == ["metric", "imperial"])
        #expect(try values("format") == ["table", "json", "ndjson", "geojson"])
        #expect(try values("server").isEmpty)
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
