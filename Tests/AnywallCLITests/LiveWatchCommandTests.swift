import Foundation
import TestSupport
import Testing

/// `nearby --watch` listening over LiveQuery instead of asking again: the real `anywall` against
/// `LiveQueryPeer`, a Python double of a LiveQuery server (none can run here), and falling back to
/// asking where no LiveQuery is to be had.
@Suite("nearby --watch over LiveQuery", .serialized)
struct LiveWatchCommandTests {
    static let origin = (latitude: 52.5, longitude: 13.4)
    static func latitude(_ metresNorth: Double) -> Double { origin.latitude + metresNorth / WatchCommandTests.metersPerDegree }
    static func post(_ id: String, _ text: String, north: Double, score: Int = 0) -> [String: Any] {
        LiveQueryPeer.post(id, text: text, latitude: latitude(north), longitude: origin.longitude, score: score)
    }

    /// A sandbox on the peer's "server", logged in as alice (the session the CLI presents).
    private func sandbox(_ peer: LiveQueryPeer) throws -> (Sandbox, [String: String]) {
        let box = try Sandbox()
        let session: [String: Any] = ["backend": peer.parseURL, "token": "r:alice-session",
                                      "user": ["objectId": "u1", "username": "alice"]]
        try FileManager.default.createDirectory(at: box.sessionFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: session).write(to: box.sessionFile)
        return (box, Sandbox.parseEnvironment(peer.parseURL))
    }

    /// `nearby --watch --ndjson` at the origin, logged in on the peer's wall.
    private func watchAtOrigin(_ peer: LiveQueryPeer, _ more: [String] = [], environment extra: [String: String] = [:]) throws -> LiveProcess {
        let (box, environment) = try sandbox(peer)
        return try LiveProcess(box, ["nearby", "--watch", "--at", "\(Self.origin.latitude),\(Self.origin.longitude)", "--ndjson"] + more,
                               environment: environment.merging(extra) { $1 })
    }

    /// Ends a watch as a service manager would (SIGTERM), waiting for it to go.
    private func end(_ watch: LiveProcess) {
        watch.signal(SIGTERM)
        _ = watch.finish()
    }

    private func events(_ watch: LiveProcess) -> [String] {
        watch.jsonLines.map { "\($0["event"]!) \(($0["post"] as! [String: Any])["objectId"]!)" }
    }

    @Test("connect and subscribe carry exactly Parse's fields and anywall-server's snapshot; pushed events print at once")
    func subscribesAndPrintsPushedEvents() throws {
        let peer = try LiveQueryPeer()
        peer.command(["write": Self.post("near", "Free coffee", north: 10)])
        let watch = try watchAtOrigin(peer, ["--radius", "50m"])
        #expect(watch.waitUntil { $0.lines.count >= 1 }, "stderr: \(watch.stderr)")

        let sent = peer.received
        #expect(sent.count == 2, "\(sent)")
        #expect(NSDictionary(dictionary: sent[0]) == NSDictionary(dictionary: [
            "op": "connect", "applicationId": Sandbox.applicationId, "restAPIKey": Sandbox.restKey, "sessionToken": "r:alice-session"]))
        let expectedSubscribe: [String: Any] = [
            "op": "subscribe", "requestId": 1, "snapshot": true,
            "query": ["className": "Posts", "where": [
                "location": ["$nearSphere": ["__type": "GeoPoint", "latitude": Self.origin.latitude, "longitude": Self.origin.longitude],
                             "$maxDistanceInKilometers": 100],
                "parent": ["$exists": false]]]]
        #expect(NSDictionary(dictionary: sent[1]) == NSDictionary(dictionary: expectedSubscribe), "\(sent[1])")
        #expect(events(watch) == ["added near"])

        // Another's new post: printed as soon as it is pushed, not at the next interval (30 s).
        let before = ContinuousClock.now
        peer.command(["write": Self.post("new", "Street art", north: 20)])
        #expect(watch.waitUntil { $0.lines.count >= 2 })
        #expect(ContinuousClock.now - before < .seconds(1))
        // Beyond the filter radius: listed, its text withheld, exactly as when asking.
        peer.command(["write": Self.post("far", "Secret", north: 400)])
        peer.command(["write": Self.post("near", "Free coffee", north: 10, score: 3)])
        peer.command(["delete": "new"])
        #expect(watch.waitUntil { $0.lines.count >= 5 }, "\(watch.lines)")
        #expect(events(watch) == ["added near", "added new", "added far", "changed near", "removed new"])
        let far = watch.jsonLines[2]["post"] as! [String: Any]
        #expect(far["visible"] as? Bool == false && far["text"] is NSNull && far["author"] is NSNull, "\(far)")
        let changed = watch.jsonLines[3]["post"] as! [String: Any]
        #expect(changed["score"] as? Int == 3 && changed["text"] as? String == "Free coffee")
        #expect(!watch.stderr.contains("asking"), "\(watch.stderr)")
        end(watch)
    }

    @Test("a move of 10 m or more sends update with the new centre; a smaller one sends nothing")
    func moveSendsUpdate() throws {
        let peer = try LiveQueryPeer()
        peer.command(["write": Self.post("near", "Free coffee", north: 30)])
        let (box, environment) = try sandbox(peer)
        let watch = try LiveProcess(box, ["nearby", "--watch", "--nmea", "-", "--ndjson", "--radius", "50m"], environment: environment)
        func walk(_ second: Int, _ north: Double) {
            watch.send(NMEATrack.epoch(latitude: Self.latitude(north), longitude: Self.origin.longitude, second: second))
        }
        walk(0, 0)
        #expect(watch.waitUntil { $0.lines.count >= 1 }, "stderr: \(watch.stderr)")
        walk(1, 6)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!peer.received.contains { $0["op"] as? String == "update" }, "6 m is less than --min-move")
        walk(2, 12)
        #expect(peer.waitUntil { $0.received.contains { $0["op"] as? String == "update" } })
        let update = peer.received.first { $0["op"] as? String == "update" }!
        let query = update["query"] as! [String: Any]
        let location = (query["where"] as! [String: Any])["location"] as! [String: Any]
        let centre = location["$nearSphere"] as! [String: Any]
        #expect(update["requestId"] as? Int == 1 && query["className"] as? String == "Posts")
        #expect(abs((centre["latitude"] as! Double) - Self.latitude(12)) < 1e-6, "\(centre)")
        #expect(update["since"] == nil && update["snapshot"] == nil)
        watch.closeInput()
        #expect(watch.finish().status == 0)
    }

    @Test("a dropped socket reconnects and resumes with since: what was written meanwhile prints once, nothing twice")
    func reconnectResumes() throws {
        let peer = try LiveQueryPeer()
        let watch = try watchAtOrigin(peer)
        #expect(peer.waitUntil { $0.received.count >= 2 })
        peer.command(["write": Self.post("one", "first", north: 10)])
        #expect(watch.waitUntil { $0.lines.count >= 1 })
        peer.command(["drop": true])
        peer.command(["write": Self.post("two", "second", north: 20)])
        peer.command(["write": Self.post("three", "third", north: 30)])
        #expect(watch.waitUntil { $0.lines.count >= 3 }, "stderr: \(watch.stderr)")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(events(watch) == ["added one", "added two", "added three"])
        let subscribes = peer.received.filter { $0["op"] as? String == "subscribe" }
        #expect(subscribes.count == 2 && subscribes[1]["since"] as? Int == 1 && subscribes[1]["snapshot"] == nil, "\(subscribes)")
        #expect(peer.opened == 2)
        #expect(watch.stderr.contains("reconnecting") && watch.stderr.contains("again"), "\(watch.stderr)")
        end(watch)
    }

    @Test("past the retention window the resync error brings a new snapshot, diffed against what was printed")
    func resyncAfterRetention() throws {
        let peer = try LiveQueryPeer()
        peer.command(["write": Self.post("kept", "kept", north: 10)])
        peer.command(["write": Self.post("gone", "gone", north: 20)])
        let watch = try watchAtOrigin(peer)
        #expect(watch.waitUntil { $0.lines.count >= 2 })
        peer.command(["drop": true])
        peer.command(["delete": "gone"])
        peer.command(["write": Self.post("fresh", "fresh", north: 30)])
        peer.command(["forget": true])
        #expect(watch.waitUntil { $0.lines.count >= 4 }, "stderr: \(watch.stderr)")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Set(events(watch).dropFirst(2)) == ["added fresh", "removed gone"], "\(events(watch))")
        #expect(events(watch).count == 4)
        let subscribes = peer.received.filter { $0["op"] as? String == "subscribe" }
        #expect(subscribes.count == 3, "\(subscribes)")
        #expect(subscribes.last?["snapshot"] as? Bool == true && subscribes.last?["since"] == nil)
        end(watch)
    }

    @Test("a stock Parse Server refuses the additions: subscribed again without them, with $maxDistance in radians")
    func stockServer() throws {
        let peer = try LiveQueryPeer(stock: true)
        let watch = try watchAtOrigin(peer, environment: ["PARSE_LIVE_QUERY_URL": "ws://127.0.0.1:\(peer.port)/"])
        #expect(peer.waitUntil { $0.received.filter { $0["op"] as? String == "subscribe" }.count >= 2 })
        let second = peer.received.filter { $0["op"] as? String == "subscribe" }[1]
        #expect(second["snapshot"] == nil && second["since"] == nil)
        let location = ((second["query"] as! [String: Any])["where"] as! [String: Any])["location"] as! [String: Any]
        #expect(location["$maxDistanceInKilometers"] == nil)
        #expect(abs((location["$maxDistance"] as! Double) - 100.0 / 6371) < 1e-12, "\(location)")
        end(watch)
    }

    @Test("no LiveQuery to be had: asks as before, and says so once on stderr (on the embedded wall, the user's own file, without a word)",
          arguments: [WallKind.embedded, .server])
    func fallsBackToAsking(kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("local")
        // On the server, a LiveQuery URL where nothing listens: the connection is refused at start.
        let environment = kind == .server ? ["PARSE_LIVE_QUERY_URL": "ws://127.0.0.1:\(try Loopback.freePort())/"] : [:]
        let watch = try LiveProcess(box, ["nearby", "--watch", "--at", "\(Self.origin.latitude),\(Self.origin.longitude)", "--ndjson",
                                          "--interval", "500ms"], environment: environment)
        if kind == .server {
            #expect(watch.waitUntil { $0.stderr.contains("asking the wall again") }, "\(watch.stderr)")
            #expect(watch.stderr.contains(": connection refused: asking the wall again"), "in the system's words: \(watch.stderr)")
        }
        let posted = try box.run(["post", "Hello", "--at", "\(Self.latitude(5)),\(Self.origin.longitude)"], environment: environment)
        #expect(posted.status == 0, "\(posted)")
        #expect(watch.waitUntil { $0.lines.contains { $0.contains("Hello") } }, "\(watch.stderr)")
        Thread.sleep(forTimeInterval: 1)
        #expect(watch.stderr.components(separatedBy: "asking the wall again").count == (kind == .server ? 2 : 1), "once: \(watch.stderr)")
        end(watch)
    }
}
