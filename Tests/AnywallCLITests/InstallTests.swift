import Foundation
import TestSupport
import Testing

/// scripts/install and scripts/uninstall on temporary prefixes. Install runs with `--no-build`, copying the
/// release binary and man page that scripts/test builds before `swift test` (`scripts/install --build-only`):
/// a build started from a test would wait forever for the lock that `swift test` holds on .build.
@Suite("Install and uninstall")
struct InstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Everything install puts in a fresh prefix: files and the directories it creates.
    static let layout: Set = [
        "bin", "bin/anywall",
        "share", "share/man", "share/man/man1", "share/man/man1/anywall.1",
        "share/bash-completion", "share/bash-completion/completions", "share/bash-completion/completions/anywall",
        "share/zsh", "share/zsh/site-functions", "share/zsh/site-functions/_anywall",
        "share/fish", "share/fish/vendor_completions.d", "share/fish/vendor_completions.d/anywall.fish",
        "share/anywall", "share/anywall/install-manifest",
    ]

    @Test("install gives a working anywall with its completions and man page; uninstall leaves nothing")
    func installThenUninstall() throws {
        let prefix = try Self.makePrefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let install = try Self.script("install", "--no-build", "--prefix", prefix.path)
        try #require(install.status == Exit.success, "\(install)")
        #expect(try Self.contents(of: prefix) == Self.layout)

        // A real job from the installed binary, in a throw-away HOME and a clean environment (no XDG_*).
        let sandbox = try Sandbox()
        let anywall = Self.quoted(prefix.appendingPathComponent("bin/anywall").path)
        #expect(try sandbox.shell("\(anywall) --version").stdout == sandbox.run(["--version"]).stdout)
        let signup = try sandbox.shell("echo pw-installed | \(anywall) signup --username installed --password-stdin")
        #expect(signup.status == Exit.success, "\(signup)")
        let post = try sandbox.shell("\(anywall) post 'Posted by the installed binary' --at 37.7793,-122.4193")
        #expect(post.status == Exit.success, "\(post)")
        let nearby = try sandbox.shell("\(anywall) nearby --at 37.7795,-122.4190 --json")
        try #require(nearby.status == Exit.success, "\(nearby)")
        let posts = try #require(nearby.json as? [[String: Any]])
        #expect(posts.map { $0["text"] as? String } == ["Posted by the installed binary"])
        #expect(posts.first?["objectId"] as? String == post.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(FileManager.default.fileExists(atPath: sandbox.wallFile.path))

        for (file, installed) in [("anywall.bash", "share/bash-completion/completions/anywall"),
                                  ("_anywall", "share/zsh/site-functions/_anywall"),
                                  ("anywall.fish", "share/fish/vendor_completions.d/anywall.fish")] {
            #expect(try Data(contentsOf: prefix.appendingPathComponent(installed))
                == Data(contentsOf: Self.root.appendingPathComponent("completions/\(file)")), "\(installed)")
        }

        let manual = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/anywall.1"), encoding: .utf8)
        #expect(manual.contains(".Dt ANYWALL 1"))
        #expect(manual.contains(".Nm anywall"))
        #expect(manual.contains("\n.It Fl -radius Ar D\n"), "nearby's options are missing")
        for command in ["signup", "login", "logout", "whoami", "post", "nearby", "where", "settings", "config", "import", "passwd"] {
            #expect(manual.contains("\n.It Em \(command)\n"), "the man page does not describe \(command)")
        }
        // The program-wide reference has sections of its own, in mdoc's order, taken from --help.
        let sections = ["ENVIRONMENT", "FILES", "EXIT STATUS"].map { manual.range(of: "\n.Sh \"\($0)\"\n")?.lowerBound }
        #expect(sections.allSatisfy { $0 != nil } && sections.compactMap { $0 } == sections.compactMap { $0 }.sorted(),
                "the man page lacks ENVIRONMENT, FILES or EXIT STATUS, in that order")
        #expect(manual.contains("\n.It 77\nnot logged in"), "EXIT STATUS does not list 77")
        #expect(manual.contains("\n.It ANYWALL_LOCATION\n"), "ENVIRONMENT does not list ANYWALL_LOCATION")
        #expect(manual.contains("\n.It $XDG_STATE_HOME/anywall/session.json\n"), "FILES does not list the session file")
        #expect(!manual.contains(".Ex -std"), "the generic EXIT STATUS is still there")

        let uninstall = try Self.script("uninstall", "--prefix", prefix.path)
        #expect(uninstall.status == Exit.success, "\(uninstall)")
        #expect(try Self.contents(of: prefix) == [])
    }

    @Test("a directory that was there before install stays after uninstall")
    func existingDirectoryStays() throws {
        let prefix = try Self.makePrefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: false)
        try #require(try Self.script("install", "--no-build", "--prefix", prefix.path).status == Exit.success)
        #expect(try Self.script("uninstall", "--prefix", prefix.path).status == Exit.success)
        #expect(try Self.contents(of: prefix) == ["bin"])
    }

    @Test("a reinstall over an install is undone by one uninstall, directories included")
    func reinstall() throws {
        let parent = try Self.makePrefix()
        defer { try? FileManager.default.removeItem(at: parent) }
        // A prefix that install creates, so that the reinstall finds every directory already there.
        let prefix = parent.appendingPathComponent("prefix")
        for _ in 1...2 {
            let install = try Self.script("install", "--no-build", "--prefix", prefix.path)
            try #require(install.status == Exit.success, "\(install)")
        }
        #expect(try Self.contents(of: prefix) == Self.layout)
        #expect(try Self.script("uninstall", "--prefix", prefix.path).status == Exit.success)
        #expect(try Self.contents(of: parent) == [])
    }

    @Test("uninstall without an install, or twice, fails with one line")
    func uninstallWithoutInstall() throws {
        let prefix = try Self.makePrefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let never = try Self.script("uninstall", "--prefix", prefix.path)
        #expect(never.status != Exit.success && never.stdout.isEmpty)
        #expect(never.stderr == "scripts/uninstall: no anywall install in \(prefix.path) (no share/anywall/install-manifest there)\n")

        try #require(try Self.script("install", "--no-build", "--prefix", prefix.path).status == Exit.success)
        #expect(try Self.script("uninstall", "--prefix", prefix.path).status == Exit.success)
        let twice = try Self.script("uninstall", "--prefix", prefix.path)
        #expect(twice.status != Exit.success && twice.stderr == never.stderr)
        #expect(try Self.contents(of: prefix) == [])
    }

    @Test("bad arguments exit 64 with one line", arguments: [
        ["install", "--no-build", "--prefix"], ["install", "--no-build", "--bogus"], ["install", "--no-build", "--build-only"],
        ["uninstall", "--prefix="], ["uninstall", "extra"],
    ])
    func badArguments(_ arguments: [String]) throws {
        let run = try Self.script(arguments[0], Array(arguments.dropFirst()))
        #expect(run.status == Exit.usage)
        #expect(run.stderr.hasPrefix("scripts/\(arguments[0]): ") && run.stderr.filter { $0 == "\n" }.count == 1, "\(run)")
    }

    /// A new empty directory to install into.
    static func makePrefix() throws -> URL {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-prefix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: false)
        return prefix
    }

    /// Runs scripts/NAME with ARGUMENTS from a temporary HOME in a clean environment.
    static func script(_ name: String, _ arguments: String...) throws -> Sandbox.Run {
        try script(name, arguments)
    }

    static func script(_ name: String, _ arguments: [String]) throws -> Sandbox.Run {
        try Sandbox().shell(([root.appendingPathComponent("scripts/\(name)").path] + arguments).map(quoted).joined(separator: " "))
    }

    /// Every path under `directory`, relative to it.
    static func contents(of directory: URL) throws -> Set<String> {
        Set(try FileManager.default.subpathsOfDirectory(atPath: directory.path))
    }

    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
