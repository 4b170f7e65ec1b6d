import Foundation
import TestSupport
import Testing

/// `nearby --watch` on the embedded wall, fed a walk as NMEA on stdin.
@Suite("nearby --watch")
struct WatchCommandTests {
    /// Metres along a meridian per degree of latitude on anywall's 6371 km sphere: on one meridian,
    /// distances are exact differences of latitude, so the expected events can be worked out here.
    static let metersPerDegree = 6_371_000 * Double.pi / 180
    static let origin = (latitude: 52.5, longitude: 13.4)
    static let radius = 50.0

    /// A post on the street, `position` metres north of the start.
    struct StreetPost {
        let id: String
        let text: String
        let position: Double
    }

    /// Three posts to walk past, 20 behind the start and 20 far ahead. Every post is 3 m off a
    /// multiple of 20 m and the walk stops every 20 m, so no two posts are ever equally far.
    static let posts: [StreetPost] = {
        var posts = [StreetPost(id: "postA", text: "Free coffee", position: 103),
                     StreetPost(id: "postB", text: "Street art", position: 303),
                     StreetPost(id: "postC", text: "Bench with a view", position: 503)]
        for k in 0..<20 {
            posts.append(StreetPost(id: String(format: "behind%02d", k), text: "behind \(k)", position: -417 - 20 * Double(k)))
            posts.append(StreetPost(id: String(format: "ahead%02d", k), text: "ahead \(k)", position: 1003 + 20 * Double(k)))
        }
        return posts
    }()

    static let stops = Array(stride(from: 0.0, through: 1400, by: 20))

    static func latitude(_ position: Double) -> Double { origin.latitude + position / metersPerDegree }

    /// What the walk must print: at each stop the nearest 20 posts are asked for (the walk moves
    /// 20 m, more than --min-move), those within the radius are readable.
    static func expectedEvents() -> [String] {
        var shown: [String: Bool] = [:]
        var events: [String] = []
        for (second, stop) in stops.enumerated() {
            let nearest = posts.sorted { abs($0.position - stop) < abs($1.position - stop) }.prefix(20)
            let time = NMEATrack.time(second: second)
            var now: [String: Bool] = [:]
            for post in nearest {
                let visible = abs(post.position - stop) <= radius
                now[post.id] = visible
                switch shown[post.id] {
                case nil: events.append("\(time) added \(post.id)")
                case .some(let was) where was != visible: events.append("\(time) \(visible ? "revealed" : "hidden") \(post.id)")
                default: break
                }
            }
            for id in shown.keys where now[id] == nil { events.append("\(time) removed \(id)") }
            shown = now
        }
        return events.sorted()
    }

    private func importStreet(into box: Sandbox) throws {
        let lines = Self.posts.map { post in
            #"{"objectId":"\#(post.id)","text":"\#(post.text)","author":"walker","location":{"latitude":\#(Self.latitude(post.position)),"longitude":\#(Self.origin.longitude)},"createdAt":"2026-11-20T10:00:00.000Z"}"#
        }
        let run = try box.run(["import", "-"], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == Exit.success, "\(run)")
    }

    private func walk(second: Int, at position: Double) -> String {
        NMEATrack.epoch(latitude: Self.latitude(position), longitude: Self.origin.longitude, second: second)
    }

    @Test("a walk past three posts: added, revealed within the radius, hidden after, removed out of the nearest 20; a new post appears within one interval")
    func walkPastThreePosts() throws {
        let box = try Sandbox()
        try importStreet(into: box)
        try box.signUp("local")
        let watch = try LiveProcess(box, ["nearby", "--watch", "--nmea", "-", "--ndjson", "--radius", "50m", "--interval", "1s"])
        for (second, stop) in Self.stops.enumerated() { watch.send(walk(second: second, at: stop)) }

        let expected = Self.expectedEvents()
        #expect(watch.waitUntil { $0.lines.count >= expected.count }, "stderr: \(watch.stderr)")
        let events = watch.jsonLines
        let seen = events.map { event -> String in
            let post = event["post"] as! [String: Any]
            return "\(event["time"] as! String) \(event["event"] as! String) \(post["objectId"] as! String)"
        }
        #expect(seen.sorted() == expected)
        for id in ["postA", "postB", "postC"] {
            #expect(seen.filter { $0.hasSuffix(" \(id)") }.map { $0.split(separator: " ")[1] } == ["added", "revealed", "hidden", "removed"], "\(id)")
        }
        // Readable only within the radius, in every event.
        for event in events {
            let post = event["post"] as! [String: Any]
            let near = (post["distanceMeters"] as! Double) <= Self.radius
            #expect((post["visible"] as! Bool) == near && (post["text"] is String) == near, "\(event)")
        }

        // Standing still at the end: only the 1 s interval asks the wall again.
        let end = Self.stops.last!
        var second = Self.stops.count
        let before = watch.lines.count
        let posted = try box.run(["post", "Just arrived", "--at", "\(Self.latitude(end + 7)),\(Self.origin.longitude)", "--json"])
        #expect(posted.status == Exit.success, "\(posted)")
        let postedAt = ContinuousClock.now
        let appeared = watch.waitUntil(timeout: .seconds(5)) { process in
            process.send(walk(second: second, at: end))
            second += 1
            Thread.sleep(forTimeInterval: 0.1)
            return process.lines.dropFirst(before).contains { $0.contains("\"event\":\"added\"") && $0.contains("Just arrived") }
        }
        #expect(appeared, "the new post was not reported: \(watch.lines.dropFirst(before)) \(watch.stderr)")
        #expect(ContinuousClock.now - postedAt < .seconds(3), "one 1 s interval, plus the time to start a process")
        // It is among the nearest 20 now, and pushes the farthest of them out.
        let changes = watch.jsonLines.dropFirst(before).map { "\($0["event"]!) \(($0["post"] as! [String: Any])["objectId"]!)" }
        #expect(changes.count == 2 && changes[0].hasPrefix("added ") && changes[1] == "removed ahead00", "\(changes)")

        watch.closeInput()
        let end_ = watch.finish()
        #expect(end_.status == Exit.success && !end_.bySignal, "watch ends at the end of the NMEA input: \(watch.stderr)")
    }

    @Test("readable lines: time, event, distance, author and text; hidden posts say so")
    func readableLines() throws {
        let box = try Sandbox()
        try importStreet(into: box)
        let track = Self.stops.prefix(4).enumerated().map { walk(second: $0.offset, at: $0.element) }.joined()
        let run = try box.run(["nearby", "--watch", "--nmea", "-", "--radius", "50m", "--limit", "2"], input: track)
        #expect(run.status == Exit.success, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run)")
        #expect(lines[0].contains("added") && lines[0].contains("103 m") && lines[0].contains("Can't view post! Get closer."))
        #expect(lines[2].contains("revealed") && lines[2].contains("43 m") && lines[2].contains("walker") && lines[2].hasSuffix("Free coffee"))
    }

    @Test("a fixed place is watched until SIGTERM or SIGINT, which end it promptly, by that signal")
    func stopsOnSignals() throws {
        for signal in [SIGTERM, SIGINT] {
            let box = try Sandbox()
            try box.signUp("alice")
            _ = try box.run(["post", "here", "--at", "10,10"])
            let watch = try LiveProcess(box, ["nearby", "--watch", "--at", "10,10", "--ndjson"])
            #expect(watch.waitUntil { $0.lines.count == 1 })
            watch.signal(signal)
            let end = watch.finish(timeout: .seconds(2))
            #expect(end.bySignal && end.status == signal, "\(watch.stderr)")
            // The embedded wall is asked again without a word: it is the user's own file.
            #expect(watch.stderr.isEmpty, "\(watch.stderr)")
        }
    }

    @Test("--watch refuses formats that cannot stream, --changes, and bad intervals")
    func badWatchFlags() throws {
        let box = try Sandbox()
        #expect(try box.run(["nearby", "--watch", "--at", "1,1", "--json"]).status == Exit.usage)
        #expect(try box.run(["nearby", "--watch", "--at", "1,1", "--changes"]).status == Exit.usage)
        #expect(try box.run(["nearby", "--at", "1,1", "--interval", "5s"]).status == Exit.usage)
        let bad = try box.run(["nearby", "--watch", "--at", "1,1", "--interval", "0s"])
        #expect(bad.status == Exit.inputRejected && bad.stderr.contains("--interval"), "\(bad)")
        let limit = try box.run(["nearby", "--watch", "--at", "1,1", "--limit", "0"])
        #expect(limit.status == Exit.inputRejected && limit.stderr.contains("bad limit 0"), "refused before watching: \(limit)")
        let noFix = try box.run(["nearby", "--watch", "--nmea", "-", "--fix-timeout", "0.5"], input: "")
        #expect(noFix.status == Exit.noFix, "an NMEA input with no fix at all: \(noFix)")
    }
}
