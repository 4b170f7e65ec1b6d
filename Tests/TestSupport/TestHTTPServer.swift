import EmbeddedStore
import Foundation
import WallDomain
#if canImport(Glibc)
import Glibc
#endif

/// A test HTTP server written in Python, on 127.0.0.1 (a stand-in for Parse Server, which cannot run
/// here: it needs Node.js and MongoDB or PostgreSQL, none of which is installed, and the tests must
/// not depend on a network service; a replay of recorded exchanges also shows exactly what the
/// client sent, and can fail on cue: slow, cut short, malformed).
///
/// `replaying` runs `Tests/Scripts/parse_fixture_server.py` over `fixtures/parse` (see its README):
/// each request must match the next fixture of the script, and `report()` says what was served, what
/// did not match and what was never asked for. The process is killed when the server is released.
package final class TestHTTPServer: @unchecked Sendable {
    package let port: Int
    /// `http://127.0.0.1:PORT/parse`
    package var parseURL: String { "http://127.0.0.1:\(port)/parse" }

    private let process: Process
    private let output: StreamCollector
    private let errors: StreamCollector
    private let lock = NSLock()
    private var stoppedOutput: String?

    /// Starts `python3 Tests/Scripts/<script> <arguments...>` (add `--port N` yourself via arguments),
    /// waits (max 10 s) for its `PORT n` line.
    package init(script: String, arguments: [String]) throws {
        let path = Self.repositoryRoot.appendingPathComponent("Tests/Scripts").appendingPathComponent(script).path
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [path] + arguments
        process.standardInput = FileHandle.nullDevice
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        output = StreamCollector(stdout.fileHandleForReading)
        errors = StreamCollector(stderr.fileHandleForReading)
        try process.runRetryingDescriptorRace()

        let deadline = ContinuousClock.now + .seconds(10)
        var announced: Int?
        while announced == nil, process.isRunning, ContinuousClock.now < deadline {
            announced = Self.announcedPort(output.text)
            if announced == nil { Thread.sleep(forTimeInterval: 0.01) }
        }
        guard let port = announced ?? Self.announcedPort(output.text) else {
            let how = process.isRunning ? "timed out" : "exited \(process.terminationStatus)"
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            _ = output.waitForEnd(timeout: .seconds(2))
            _ = errors.waitForEnd(timeout: .seconds(2))
            throw HelperFailure(description: "\(script) did not announce its port (\(how)):\nstdout: \(output.text)\nstderr: \(errors.text.suffix(2000))")
        }
        self.port = port
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Sends SIGTERM, waits for the exit, returns everything it printed on stdout after the PORT line.
    /// Safe to call more than once (later calls return the same text).
    package func stop() -> String {
        lock.withLock {
            if let stoppedOutput { return stoppedOutput }
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            let deadline = ContinuousClock.now + .seconds(10)
            while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            // The report is written just before the exit: wait for the pipe to be drained.
            _ = output.waitForEnd(timeout: .seconds(5))
            let text = output.text
            let afterPort = text.firstIndex(of: "\n").map { String(text[text.index(after: $0)...]) } ?? ""
            stoppedOutput = afterPort
            return afterPort
        }
    }

    /// What the server wrote on stderr so far (one line per request it matched or refused).
    package var log: String { errors.text }

    /// `N` from a first line `PORT N`.
    private static func announcedPort(_ text: String) -> Int? {
        guard let end = text.firstIndex(of: "\n") else { return nil }
        let line = text[..<end]
        guard line.hasPrefix("PORT ") else { return nil }
        return Int(line.dropFirst("PORT ".count))
    }

    package static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The interpreter `/usr/bin/env python3` finds, resolved once to its real path. pyenv's `python3`
    /// on PATH is a chain of shell scripts that end in `exec`, and a signal that reaches one of them
    /// before that is lost (seen here once); starting the interpreter itself makes sure the pid
    /// that `stop()` signals is Python's.
    package static let python: String = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import sys; print(sys.executable)"]
        let pipe = Pipe()
        probe.standardOutput = pipe
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return "/usr/bin/python3" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        probe.waitUntilExit()
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return probe.terminationStatus == 0 && !path.isEmpty ? path : "/usr/bin/python3"
    }()
}

/// Everything a pipe delivers, read on a thread of its own until the end of the stream.
package final class StreamCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var ended = false

    package init(_ handle: FileHandle) {
        // read(2) rather than FileHandle.read(upToCount:), which waits for the whole count or the end.
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                if count > 0 {
                    lock.withLock { data.append(contentsOf: buffer[..<count]) }
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            lock.withLock { ended = true }
        }
        thread.start()
    }

    package var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Whether the stream ended (every writer closed it) within `timeout`.
    package func waitForEnd(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !lock.withLock({ ended }) {
            if ContinuousClock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}

/// The replay server's report, decoded.
package struct FixtureReport: Decodable {
    /// Fixtures whose request came and matched, in order.
    package let served: [String]
    package let mismatches: [Mismatch]
    /// Fixtures of the script never reached.
    package let unused: [String]

    /// A request that did not match the fixture expected at its turn (`expected` is nil past the
    /// script's end). That fixture counts as used.
    package struct Mismatch: Decodable, CustomStringConvertible {
        struct Request: Decodable {
            let method: String
            let path: String
            /// Each parameter's values, decoded.
            let query: [String: [String]]
            /// The headers exactly as received.
            let headers: [String: String]
            let body: String
        }

        let expected: String?
        let request: Request
        let differences: [String]

        package var description: String {
            let query = request.query.sorted { $0.key < $1.key }
                .flatMap { name, values in values.map { "\(name)=\($0)" } }.joined(separator: "&")
            let target = request.path + (query.isEmpty ? "" : "?" + query)
            return "\(request.method) \(target) does not match \(expected ?? "anything: the script had ended"): "
                + differences.joined(separator: "; ")
        }
    }
}

extension TestHTTPServer {
    /// Convenience: starts parse_fixture_server.py with fixtures/parse and a script (fixture names,
    /// in the order the requests must come; a name may repeat).
    package static func replaying(_ script: [String], port: Int = 0) throws -> TestHTTPServer {
        try TestHTTPServer(script: "parse_fixture_server.py", arguments: [
            "--fixtures", repositoryRoot.appendingPathComponent("fixtures/parse").path,
            "--script", script.joined(separator: ","),
            "--port", String(port),
        ])
    }

    /// Stops the server and decodes its report.
    package func report() throws -> FixtureReport {
        let text = stop()
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            throw HelperFailure(description: "the replay server printed no report: \(text)\nstderr: \(log.suffix(2000))")
        }
        do {
            return try JSONDecoder().decode(FixtureReport.self, from: Data(line.utf8))
        } catch {
            throw HelperFailure(description: "unreadable report (\(error)): \(line)")
        }
    }
}
