import Foundation
import TestSupport
import Testing

/// Slow and greedy clients against the real server binary: connections that send nothing or
/// dribble, bodies that stop, more connections than the cap, and a flood of log-ins, while other
/// clients are still answered.
@Suite("anywall-server: slow and greedy clients", .serialized)
struct SlowClientTests {
    private static func server(_ arguments: [String] = []) throws -> WallServer {
        try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-slow-\(UUID().uuidString).sqlite"),
                       arguments: arguments)
    }

    @Test("a connection that sends nothing, or its headers a byte at a time, is closed after --idle-timeout")
    func idleAndDribbling() throws {
        let server = try Self.server(["--idle-timeout", "1"])
        let idle = try RawHTTPConnection(port: server.port)
        #expect(idle.closedByServer())

        let dribbling = try RawHTTPConnection(port: server.port)
        var sent = 0
        for byte in "GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 200))".utf8 {
            guard dribbling.write(String(UnicodeScalar(byte))) else { break }
            sent += 1
            Thread.sleep(forTimeInterval: 0.05)
        }
        // 1 s of a 250-byte head at 20 bytes a second: cut off well before it was all sent.
        #expect(sent < 150, "the server took \(sent) bytes of a head over \(Double(sent) / 20) s")
        #expect(try server.send("GET", "/health").status == 200)
        #expect(server.stop() == 0)
    }

    @Test("a body that stops arriving has its connection closed; one that dribbles is answered 408")
    func slowBodies() throws {
        let server = try Self.server(["--idle-timeout", "1"])
        let head = "POST /parse/classes/Posts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(Sandbox.applicationId)\r\n"
            + "X-Parse-REST-API-Key: \(Sandbox.restKey)\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        let stalled = try RawHTTPConnection(port: server.port)
        stalled.write(head + "{\"text\":")
        #expect(stalled.closedByServer())

        let dribbling = try RawHTTPConnection(port: server.port)
        dribbling.write(head)
        var sent = 0
        // A byte every 0.1 s keeps the connection from being idle; the body's deadline still comes.
        while sent < 40, dribbling.write(" ") {
            sent += 1
            Thread.sleep(forTimeInterval: 0.1)
        }
        let answer = dribbling.readAnswer()
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer) after \(sent) bytes")
        #expect(try server.send("GET", "/classes/Posts").status == 200)
        #expect(server.stop() == 0)
    }

    @Test("past --max-connections a new connection waits its turn, and is served once one closes")
    func connectionCap() throws {
        let server = try Self.server(["--max-connections", "4", "--idle-timeout", "2"])
        let held = try (0..<4).map { _ in try RawHTTPConnection(port: server.port) }
        // Each held connection answered once, so the server has taken all four before the fifth
        // comes: taken together from its listen queue, they could all be let in at once.
        for connection in held { #expect(connection.request("GET", "/parse/health").hasPrefix("HTTP/1.1 200")) }
        let waiting = try RawHTTPConnection(port: server.port)
        let start = ContinuousClock.now
        let answer = waiting.request("GET", "/parse/health")
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        // Served only after the idle ones were closed: the cap held.
        #expect(ContinuousClock.now - start >= .milliseconds(1500), "answered while the cap was reached")
        #expect(held.allSatisfy { $0.closedByServer() })
        #expect(server.stop() == 0)
    }

    @Test("hundreds of idle connections and a log-in flood do not stop a nearby request from being answered")
    func floodAndIdleConnections() throws {
        // All from one address here: its share of connections raised past the 300 held (HostileClientTests tests the share).
        let server = try Self.server(["--max-connections-per-address", "400"])
        let victim = try server.signUp("victim", password: "right")
        _ = try server.post("here", latitude: 48.85, longitude: 2.35, token: victim.token)
        let idle = try (0..<300).map { _ in try RawHTTPConnection(port: server.port) }

        let statuses = FloodStatuses()
        let flooding = DispatchGroup()
        let stop = ContinuousClock.now + .seconds(6)
        for flooder in 0..<8 {
            DispatchQueue.global().async(group: flooding) {
                guard let connection = try? RawHTTPConnection(port: server.port) else { return }
                var attempt = 0
                while ContinuousClock.now < stop {
                    attempt += 1
                    // Wrong passwords for the victim, and sign-ups of new names: each would run scrypt.
                    let guessing = flooder % 2 == 0
                    let body = guessing ? #"{"username":"victim","password":"wrong"}"#
                        : #"{"username":"flood\#(flooder)x\#(attempt)","password":"pw"}"#
                    let answer = connection.request("POST", guessing ? "/parse/login" : "/parse/users", body: body)
                    statuses.add(String(answer.prefix(12)))
                }
            }
        }
        Thread.sleep(forTimeInterval: 2)
        let nearby = try server.send("GET", "/classes/Posts", query: [
            "where": #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":48.85,"longitude":2.35},"$maxDistanceInKilometers":1}}"#,
        ])
        flooding.wait()
        #expect(nearby.status == 200, "\(nearby)")
        #expect(nearby.text.contains("here"))
        // Password checks ran one at a time, at most the address's budget of them (20, one more each
        // 3 s); the rest of the flood, if any, got Parse's rate-limit answer; nothing failed.
        let hashed = statuses.count(of: "HTTP/1.1 201") + statuses.count(of: "HTTP/1.1 404")
        #expect(hashed <= 25, "\(statuses.summary)")
        #expect(hashed + statuses.count(of: "HTTP/1.1 429") == statuses.total, "\(statuses.summary)")
        // Holds the idle connections open until here.
        withExtendedLifetime(idle) {}
        #expect(server.stop() == 0)
    }
}

/// The status lines the flood got, counted across threads.
private final class FloodStatuses: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func add(_ status: String) { lock.withLock { counts[status, default: 0] += 1 } }
    func count(of status: String) -> Int { lock.withLock { counts[status] ?? 0 } }
    var total: Int { lock.withLock { counts.values.reduce(0, +) } }
    var summary: String { lock.withLock { "\(counts)" } }
}
