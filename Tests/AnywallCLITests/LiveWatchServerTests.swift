import Foundation
import TestSupport
import Testing

/// `nearby --watch` listening to the real anywall-server's LiveQuery (on the store of this run of
/// the suite): pushed posts print at once, a walk fed as NMEA reveals and hides, and a server
/// restarted under a watch costs it no event.
@Suite("nearby --watch against anywall-server's LiveQuery")
struct LiveWatchServerTests {
    static let origin = (latitude: 52.5, longitude: 13.4)
    static func latitude(_ metresNorth: Double) -> Double { origin.latitude + metresNorth / WatchCommandTests.metersPerDegree }

    /// A server sandbox with `watcher` and `poster` signed up; the sandbox is logged in as the watcher.
    private func sandbox() throws -> (box: Sandbox, server: WallServer, poster: String) {
        let box = try Sandbox(.server)
        let server = try #require(box.server)
        let poster = try server.signUp("poster").token
        try box.signUp("watcher")
        return (box, server, poster)
    }

    private func post(_ server: WallServer, _ text: String, north: Double, token: String) throws -> String {
        let answer = try server.post(text, latitude: Self.latitude(north), longitude: Self.origin.longitude, token: token)
        #expect(answer.status == 201, "\(answer)")
        return answer.json["objectId"] as? String ?? ""
    }

    private func events(_ watch: LiveProcess) -> [String] {
        watch.jsonLines.map { "\($0["event"]!) \(($0["post"] as! [String: Any])["text"] ?? ($0["post"] as! [String: Any])["objectId"]!)" }
    }

    @Test("another process's post prints as added within 100 ms of its write (the median of five), and no poll is said to run")
    func pushedPostWithin100ms() throws {
        let (box, server, poster) = try sandbox()
        let watch = try LiveProcess(box, ["nearby", "--watch", "--at", "\(Self.origin.latitude),\(Self.origin.longitude)", "--ndjson",
                                          "--radius", "1km"])
        defer { watch.signal(SIGTERM); _ = watch.finish() }
        // Subscribed once the first post is told.
        _ = try post(server, "first", north: 10, token: poster)
        #expect(watch.waitUntil { $0.lines.count >= 1 }, "stderr: \(watch.stderr)")
        var delays: [Duration] = []
        for n in 0..<5 {
            let before = watch.lines.count
            _ = try post(server, "post \(n)", north: Double(20 + n), token: poster)
            let written = ContinuousClock.now
            #expect(watch.waitUntil(timeout: .seconds(5)) { $0.lines.count > before }, "stderr: \(watch.stderr)")
            delays.append(ContinuousClock.now - written)
        }
        let median = delays.sorted()[2]
        #expect(median < .milliseconds(100), "\(delays)")
        #expect(events(watch) == ["added first"] + (0..<5).map { "added post \($0)" })
        #expect(!watch.stderr.contains("asking the wall again"), "it listens, it does not poll: \(watch.stderr)")
    }

    @Test("a walk fed as NMEA past a post: revealed within the filter radius, hidden after, as the subscription follows the walker")
    func walkRevealsAndHides() throws {
        let (box, server, poster) = try sandbox()
        _ = try post(server, "Free coffee", north: 103, token: poster)
        let watch = try LiveProcess(box, ["nearby", "--watch", "--nmea", "-", "--ndjson", "--radius", "50m"])
        defer { watch.signal(SIGTERM); _ = watch.finish() }
        var second = 0
        for stop in stride(from: 0.0, through: 300, by: 20) {
            watch.send(NMEATrack.epoch(latitude: Self.latitude(stop), longitude: Self.origin.longitude, second: second))
            second += 1
            Thread.sleep(forTimeInterval: 0.15)
        }
        #expect(watch.waitUntil(timeout: .seconds(10)) { $0.lines.count >= 3 }, "stderr: \(watch.stderr)")
        let seen = watch.jsonLines.map { $0["event"] as! String }
        #expect(seen == ["added", "revealed", "hidden"], "\(watch.lines) \(watch.stderr)")
        #expect(!watch.stderr.contains("asking the wall again"), "\(watch.stderr)")
    }

    @Test("the server restarted under a watch: the watch resumes from its last seq, and a post written as the server comes back prints once")
    func serverRestartLosesNothing() throws {
        let (box, server, poster) = try sandbox()
        let watch = try LiveProcess(box, ["nearby", "--watch", "--at", "\(Self.origin.latitude),\(Self.origin.longitude)", "--ndjson",
                                          "--radius", "1km"])
        defer { watch.signal(SIGTERM); _ = watch.finish() }
        _ = try post(server, "before the restart", north: 10, token: poster)
        #expect(watch.waitUntil { $0.lines.count >= 1 }, "stderr: \(watch.stderr)")
        #expect(server.stop() == 0, "a server with a LiveQuery socket open stops as asked (SIGTERM), closing it")
        try server.start()
        // Written as soon as the server is back, before the watch has connected again.
        _ = try post(server, "while the watch was away", north: 20, token: poster)
        #expect(watch.waitUntil(timeout: .seconds(15)) { $0.lines.count >= 2 }, "stderr: \(watch.stderr)")
        _ = try post(server, "after it came back", north: 30, token: poster)
        #expect(watch.waitUntil(timeout: .seconds(10)) { $0.lines.count >= 3 }, "stderr: \(watch.stderr)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(events(watch) == ["added before the restart", "added while the watch was away", "added after it came back"],
                "\(watch.lines) \(watch.stderr)")
        #expect(watch.stderr.components(separatedBy: "closed the connection; reconnecting").count == 2, "warned once: \(watch.stderr)")
    }
}
