import EmbeddedStore
import Foundation
import Testing
import WallDomain

/// Which wall a sandbox's commands use: the embedded SQLite file, or a server over Parse's REST API.
package enum WallKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case embedded
    /// The real `anywall-server` on 127.0.0.1, reached through the Parse backend (libcurl).
    case server

    package var description: String { rawValue }
}

/// A temporary HOME in which the real `anywall` binary runs, as a user would run it.
package struct Sandbox {
    package struct Run: CustomStringConvertible {
        package let status: Int32
        package let stdout: String
        package let stderr: String

        package var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
        /// Every line of stdout parsed as JSON.
        package var jsonLines: [[String: Any]] {
            stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        }
        package var json: Any { try! JSONSerialization.jsonObject(with: Data(stdout.utf8), options: .fragmentsAllowed) }
    }

    /// The binary under test: `ANYWALL_BIN`, else the `anywall` built beside the test bundle.
    package static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["ANYWALL_BIN"] { return URL(fileURLWithPath: path) }
        var dir = Bundle.main.bundleURL
        while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("anywall").path), dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("anywall")
    }()

    package let home: URL
    package let kind: WallKind
    /// The anywall-server of a `.server` sandbox; stopped when the last copy of the sandbox goes.
    package let server: WallServer?

    package static let applicationId = "anywall-test-app"
    package static let restKey = "anywall-test-rest-key"
    package static let masterKey = "anywall-test-master-key"

    package init(_ kind: WallKind = .embedded) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        self.kind = kind
        server = kind == .server ? try WallServer(store: home.appendingPathComponent("server-wall.sqlite")) : nil
        try Self.masterKey.write(to: masterKeyFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: masterKeyFile.path)
    }

    /// A file holding the server's master key (mode 0600 as a user would keep it).
    package var masterKeyFile: URL { home.appendingPathComponent("master.key") }

    /// How the wall's identity starts (`whoami --json`, `settings show --json`, `config show --json`).
    package var backendPrefix: String { server?.parseURL ?? "embedded:" }

    /// What `config set` and `config init` need on this sandbox's wall: the master key on a server.
    package var adminArguments: [String] { kind == .server ? ["--master-key-file", masterKeyFile.path] : [] }

    package var wallFile: URL { home.appendingPathComponent(".local/share/anywall/wall.sqlite") }
    package var sessionFile: URL { home.appendingPathComponent(".local/state/anywall/session.json") }

    /// Runs `anywall ARGS` with stdin from `input` (or empty), in this HOME and a clean environment.
    /// Every failure it sees is checked for anywall's one error style (`anywall: ...` first), so
    /// that each error path the suite drives holds to it.
    @discardableResult
    package func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Run {
        let run = try Self.execute(Self.binary, arguments, input: input, environment: baseEnvironment.merging(environment) { $1 })
        if run.status != 0, let first = run.stderr.split(separator: "\n").first, !first.hasPrefix("anywall: ") {
            Issue.record("anywall \(arguments) failed without 'anywall: ' first on stderr: \(run)")
        }
        return run
    }

    /// Runs any program in this HOME (shell loops for concurrency tests).
    package func shell(_ script: String) throws -> Run {
        try Self.execute(URL(fileURLWithPath: "/bin/bash"), ["-c", script],
                         input: nil, environment: baseEnvironment.merging(["ANYWALL": Self.binary.path]) { $1 })
    }

    /// Signs `username` up (password "pw-<username>") and leaves them logged in.
    package func signUp(_ username: String, name: String? = nil) throws {
        let run = try run(["signup", "--username", username, "--password-stdin"] + (name.map { ["--name", $0] } ?? []),
                          input: "pw-\(username)\n")
        precondition(run.status == 0, "signup failed: \(run)")
    }

    /// The environment every run gets: this HOME, PATH, a UTF-8 locale, and the server of a `.server` sandbox.
    package var baseEnvironment: [String: String] {
        var environment = ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        if let server { environment.merge(Self.parseEnvironment(server.parseURL)) { $1 } }
        return environment
    }

    /// The environment that points anywall at the Parse Server at `url`, with the test keys.
    package static func parseEnvironment(_ url: String) -> [String: String] {
        ["PARSE_SERVER_URL": url, "PARSE_APPLICATION_ID": applicationId, "PARSE_REST_API_KEY": restKey]
    }

    private static func execute(_ program: URL, _ arguments: [String], input: String?, environment: [String: String]) throws -> Run {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = ["in", "out", "err"].map { dir.appendingPathComponent($0) }
        try Data((input ?? "").utf8).write(to: paths[0])
        for path in paths.dropFirst() { _ = FileManager.default.createFile(atPath: path.path, contents: nil) }
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = environment
        process.standardInput = try FileHandle(forReadingFrom: paths[0])
        process.standardOutput = try FileHandle(forWritingTo: paths[1])
        process.standardError = try FileHandle(forWritingTo: paths[2])
        try process.runRetryingDescriptorRace()
        process.waitUntilExit()
        return Run(status: process.terminationStatus,
                   stdout: try String(contentsOf: paths[1], encoding: .utf8),
                   stderr: try String(contentsOf: paths[2], encoding: .utf8))
    }
}

/// Exit codes as the README documents them.
package enum Exit {
    package static let success: Int32 = 0
    package static let stale: Int32 = 3
    package static let usage: Int32 = 64
    package static let inputRejected: Int32 = 65
    package static let fileUnreadable: Int32 = 66
    package static let loginNotApproved: Int32 = 67
    package static let unreachable: Int32 = 69
    package static let internalFailure: Int32 = 70
    package static let outputFailed: Int32 = 74
    package static let noFix: Int32 = 75
    package static let protocolError: Int32 = 76
    package static let authFailed: Int32 = 77
    package static let notConfigured: Int32 = 78
}
