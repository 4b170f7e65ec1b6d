import EmbeddedStore
import Foundation
import WallDomain
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The real `anywall-server`, built beside `anywall`, serving a wall on 127.0.0.1 with the test
/// keys: the SQLite file `store`, or on PostgreSQL a database of its own (`TestStore`). It can be stopped (SIGTERM: connections are then refused) and started again on the
/// same port with the same wall, as a real outage and recovery.
package final class WallServer: @unchecked Sendable {
    /// The binary under test: `ANYWALL_SERVER_BIN`, else the one beside `anywall`.
    package static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["ANYWALL_SERVER_BIN"] { return URL(fileURLWithPath: path) }
        return Sandbox.binary.deletingLastPathComponent().appendingPathComponent("anywall-server")
    }()

    /// The options naming the wall (`--store FILE` or `--database URI`).
    package let wall: [String]
    /// Options given after the wall's and `--port`.
    package let arguments: [String]
    package private(set) var port: Int
    private let lock = NSLock()
    private var process: Process?
    private var errors: StreamCollector?
    private var logs: [String] = []
    /// While the server is stopped, a socket bound to its port and not listening (connections are
    /// still refused), so that no other test's server, started on any free port meanwhile, takes
    /// the port before this one starts again on it: clients of the stopped server would then talk
    /// to a stranger (seen once in CI: its 209 answers ended the test's session).
    private var portHold: Int32 = -1

    /// `http://127.0.0.1:PORT/parse`
    package var parseURL: String { "http://127.0.0.1:\(port)/parse" }

    /// Starts a server on `store` (created when missing), on any free port unless `port` is given,
    /// with `arguments` as further options.
    package convenience init(store: URL, port: Int = 0, arguments: [String] = [], environment: [String: String] = [:]) throws {
        try self.init(wall: TestStore.serverArguments(for: store), port: port, arguments: arguments, environment: environment)
    }

    /// Starts a server on the PostgreSQL database at `uri`, as `init(store:)` does on a file.
    package convenience init(database uri: String, port: Int = 0, arguments: [String] = [], environment: [String: String] = [:]) throws {
        try self.init(wall: ["--database", uri], port: port, arguments: arguments, environment: environment)
    }

    /// Starts a server on the wall `wall` names (`--store FILE` or `--database URI`).
    package init(wall: [String], port: Int = 0, arguments: [String] = [], environment: [String: String] = [:]) throws {
        self.wall = wall
        self.port = port
        self.arguments = arguments
        try start(environment: environment)
    }

    /// Starts it again (after `stop()`) on the same port and wall.
    package func start(environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = Self.binary
        // The suites sign up with short passwords ("pw") everywhere; the minimum's own tests set it.
        let passwords = arguments.contains("--min-password-length") ? [] : ["--min-password-length", "1"]
        process.arguments = wall + ["--port", "\(port)"] + passwords + arguments
        process.environment = ["PARSE_SERVER_APPLICATION_ID": Sandbox.applicationId, "PARSE_SERVER_MASTER_KEY": Sandbox.masterKey,
                               "PARSE_SERVER_REST_API_KEY": Sandbox.restKey, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        let errors = StreamCollector(stderr.fileHandleForReading)
        lock.withLock { releasePort() }
        try process.runRetryingDescriptorRace()
        let deadline = ContinuousClock.now + .seconds(20)
        var listening: [String: Any]?
        while listening == nil, process.isRunning, ContinuousClock.now < deadline {
            listening = Self.events(errors.text).first { $0["event"] as? String == "listening" }
            if listening == nil { Thread.sleep(forTimeInterval: 0.01) }
        }
        guard let port = listening?["port"] as? Int else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            // All it wrote, not only what was read before it exited (a busy machine lags behind).
            _ = errors.waitForEnd(timeout: .seconds(5))
            throw HelperFailure(description: "anywall-server did not start (exit \(process.terminationStatus)): \(errors.text.suffix(2000))")
        }
        lock.withLock {
            self.port = port
            self.process = process
            self.errors = errors
        }
    }

    /// Runs the binary with `arguments` and `environment` alone until it exits, as a start that
    /// fails (or `copy`) does: its exit status and what it wrote on stderr.
    package static func runToExit(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stderr: String) {
        let run = try runToExitWithOutput(arguments, environment: environment)
        return (run.status, run.stderr)
    }

    /// As `runToExit`, with what it wrote on stdout too.
    package static func runToExitWithOutput(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-server-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.runRetryingDescriptorRace()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "", (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// The server process's resident memory now, in bytes (`VmRSS` of /proc), nil when it is not running.
    package var residentBytes: Int? {
        guard let pid = lock.withLock({ process?.processIdentifier }),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }

    /// Sends `number` and returns at once: SIGSTOP freezes the server with requests in flight,
    /// SIGCONT lets it go on.
    package func signal(_ number: Int32) {
        lock.withLock { if let process { _ = kill(process.processIdentifier, number) } }
    }

    /// Sends `signal` (SIGTERM: a clean stop; SIGKILL: a crash) and waits for the exit; returns the exit status.
    @discardableResult
    package func stop(signal: Int32 = SIGTERM) -> Int32 {
        lock.withLock {
            guard let process else { return 0 }
            if process.isRunning { kill(process.processIdentifier, signal) }
            let deadline = ContinuousClock.now + .seconds(15)
            while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            _ = errors?.waitForEnd(timeout: .seconds(5))
            logs.append(errors?.text ?? "")
            self.process = nil
            errors = nil
            holdPort()
            return process.terminationStatus
        }
    }

    deinit {
        stop()
        releasePort()
    }

    /// Binds `portHold` to the stopped server's port (SO_REUSEADDR: its closed connections may
    /// still be in TIME_WAIT); without it nothing is held, as before.
    private func holdPort() {
        guard portHold < 0, port > 0 else { return }
        let fd = Loopback.tcpSocket()
        guard fd >= 0 else { return }
        var reuse: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        if Loopback.bind(fd, port: port) == 0 { portHold = fd } else { close(fd) }
    }

    private func releasePort() {
        guard portHold >= 0 else { return }
        close(portHold)
        portHold = -1
    }

    /// Everything every run of the server wrote on stderr.
    package var log: String { lock.withLock { (logs + [errors?.text ?? ""]).joined() } }

    /// The log's lines, as JSON objects.
    package var logEvents: [[String: Any]] { Self.events(log) }

    private static func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    // MARK: Requests

    /// A server's answer: status, headers (names lower-cased) and the body.
    package struct Answer: CustomStringConvertible {
        package let status: Int
        package let headers: [String: String]
        package let body: Data

        /// The body as a JSON object (empty when it is not one).
        package var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        package var text: String { String(decoding: body, as: UTF8.self) }
        package var description: String { "HTTP \(status) \(text)" }
    }

    /// The headers every client sends: the application id and REST key.
    package static let keyHeaders = ["X-Parse-Application-Id": Sandbox.applicationId, "X-Parse-REST-API-Key": Sandbox.restKey]

    /// Sends one request to `PATH` under the mount (e.g. `/classes/Posts`), with the keys unless
    /// `headers` replaces them, and a JSON body when given.
    package func send(_ method: String, _ path: String, query: [String: String] = [:], headers: [String: String] = keyHeaders,
              json: Any? = nil, body: Data? = nil) throws -> Answer {
        var components = URLComponents(string: parseURL + path)!
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            // URLComponents leaves `+` as it is, which a server reads as a space (a `$regex` of `l+`
            // would arrive as `l `): a value's `+` is sent as `%2B`, as the Parse SDKs send it.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
        }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: Result<Answer, Error> = .failure(HelperFailure(description: "no answer"))
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                let headers = Dictionary(http.allHeaderFields.map { (String(describing: $0.key).lowercased(), String(describing: $0.value)) },
                                         uniquingKeysWith: { first, _ in first })
                answer = .success(Answer(status: http.statusCode, headers: headers, body: data ?? Data()))
            } else {
                answer = .failure(error ?? HelperFailure(description: "no HTTP answer"))
            }
            done.signal()
        }.resume()
        done.wait()
        return try answer.get()
    }

    /// Signs a user up over HTTP; returns the session token and the user's object id.
    package func signUp(_ username: String, password: String = "pw") throws -> (token: String, objectId: String) {
        let answer = try send("POST", "/users", json: ["username": username, "password": password])
        guard answer.status == 201, let token = answer.json["sessionToken"] as? String, let id = answer.json["objectId"] as? String else {
            throw HelperFailure(description: "signup of \(username) failed: \(answer)")
        }
        return (token, id)
    }

    /// Posts as the session's user over HTTP, with `acl` when given (else none: Parse's default,
    /// everyone reads and writes); returns the server's answer.
    package func post(_ text: String, latitude: Double, longitude: Double, token: String, requestId: String? = nil,
                      acl: [String: Any]? = nil) throws -> Answer {
        var headers = Self.keyHeaders
        headers["X-Parse-Session-Token"] = token
        if let requestId { headers["X-Parse-Request-Id"] = requestId }
        var body: [String: Any] = ["text": text, "location": ["__type": "GeoPoint", "latitude": latitude, "longitude": longitude]]
        if let acl { body["ACL"] = acl }
        return try send("POST", "/classes/Posts", headers: headers, json: body)
    }
}
