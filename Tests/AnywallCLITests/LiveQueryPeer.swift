import Foundation
import TestSupport

/// `Tests/Scripts/live_query_peer.py` on 127.0.0.1: a double standing in for a LiveQuery server
/// (Parse Server's cannot run here: no npm; anywall-server's is not built yet), which speaks the
/// protocol with anywall-server's additions and records every message a client sends.
final class LiveQueryPeer: @unchecked Sendable {
    let port: Int
    private let process = Process()
    private let input = Pipe()
    private let output: StreamCollector

    init(stock: Bool = false) throws {
        let script = TestHTTPServer.repositoryRoot.appendingPathComponent("Tests/Scripts/live_query_peer.py").path
        process.executableURL = URL(fileURLWithPath: TestHTTPServer.python)
        process.arguments = [script] + (stock ? ["--stock"] : [])
        process.standardInput = input
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        output = StreamCollector(stdout.fileHandleForReading)
        try process.run()
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !output.text.contains("\n") { Thread.sleep(forTimeInterval: 0.01) }
        guard let first = output.text.split(separator: "\n").first, first.hasPrefix("PORT "), let port = Int(first.dropFirst(5)) else {
            process.terminate()
            throw HelperFailure(description: "the LiveQuery peer did not start: \(output.text)")
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The REST URL whose LiveQuery anywall derives as ws://127.0.0.1:PORT/parse (as anywall-server's).
    var parseURL: String { "http://127.0.0.1:\(port)/parse" }

    /// Runs one command (see the script) and waits until it is done.
    func command(_ json: [String: Any]) {
        let done = lines.filter { $0 == "DONE" }.count
        let data = try! JSONSerialization.data(withJSONObject: json)
        try! input.fileHandleForWriting.write(contentsOf: data + Data("\n".utf8))
        _ = waitUntil { $0.lines.filter { $0 == "DONE" }.count > done }
    }

    var lines: [String] { output.text.split(separator: "\n").map(String.init) }

    /// Every message clients sent, in order.
    var received: [[String: Any]] {
        lines.filter { $0.hasPrefix("RECV ") }.map { try! JSONSerialization.jsonObject(with: Data($0.dropFirst(5).utf8)) as! [String: Any] }
    }

    /// How many sockets were opened.
    var opened: Int { lines.filter { $0 == "OPEN" }.count }

    func waitUntil(timeout: Duration = .seconds(10), _ condition: (LiveQueryPeer) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(self)
    }

    /// A post as Parse JSON, as REST and LiveQuery events carry it.
    static func post(_ id: String, text: String, latitude: Double, longitude: Double, score: Int = 0) -> [String: Any] {
        ["objectId": id, "text": text, "createdAt": "2026-11-20T10:00:00.000Z", "updatedAt": "2026-11-20T10:00:00.000Z",
         "location": ["__type": "GeoPoint", "latitude": latitude, "longitude": longitude],
         "user": ["__type": "Object", "className": "_User", "objectId": "u1", "username": "alice"],
         "score": score, "ACL": ["*": ["read": true]]]
    }
}
