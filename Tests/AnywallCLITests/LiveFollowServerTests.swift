import Foundation
import TestSupport
import Testing

/// `thread --watch` and `activity --watch` listening to the real anywall-server's LiveQuery (on the
/// store of this run of the suite), and asking again every --interval where no LiveQuery is to be
/// had (the embedded wall; a server whose LiveQuery URL answers nothing), said once on stderr.
@Suite("thread --watch and activity --watch against anywall-server's LiveQuery")
struct LiveFollowServerTests {
    static let origin = (latitude: 52.5, longitude: 13.4)
    static let here = ["--at", "\(origin.latitude),\(origin.longitude)"]
    static var place: [String: Any] { ["__type": "GeoPoint", "latitude": origin.latitude, "longitude": origin.longitude] }

    private static func headers(_ token: String) -> [String: String] {
        WallServer.keyHeaders.merging(["X-Parse-Session-Token": token]) { $1 }
    }

    private static func pointer(_ objectId: String) -> [String: Any] { ["__type": "Pointer", "className": "Posts", "objectId": objectId] }

    /// A server sandbox logged in as `me`, who has posted; `other` signed up over HTTP.
    private func sandbox() throws -> (box: Sandbox, server: WallServer, other: String, post: String) {
        let box = try Sandbox(.server)
        let server = try #require(box.server)
        let other = try server.signUp("other").token
        try box.signUp("me")
        let post = try box.run(["post", "Free coffee"] + Self.here).stdout.trimmingCharacters(in: .newlines)
        return (box, server, other, post)
    }

    @discardableResult
    private func reply(_ server: WallServer, _ text: String, to post: String, token: String) throws -> String {
        let answer = try server.send("POST", "/classes/Posts", headers: Self.headers(token),
                                     json: ["text": text, "location": Self.place, "parent": Self.pointer(post)])
        #expect(answer.status == 201, "\(answer)")
        return answer.json["objectId"] as? String ?? ""
    }

    private func end(_ watch: LiveProcess) {
        watch.signal(SIGTERM)
        _ = watch.finish()
    }

    @Test("thread --watch: the thread as added, then another's new reply printed as added within a second of its write, a deleted one as removed, no poll said")
    func threadPushesReplies() throws {
        let (box, server, other, post) = try sandbox()
        let first = try reply(server, "first reply", to: post, token: other)
        let watch = try LiveProcess(box, ["thread", post, "--watch", "--ndjson"] + Self.here)
        defer { end(watch) }
        #expect(watch.waitUntil { $0.lines.count >= 2 }, "stderr: \(watch.stderr)")
        // Listening once the snapshot was read: give the subscription a moment to be in force.
        Thread.sleep(forTimeInterval: 0.5)
        let written = ContinuousClock.now
        try reply(server, "second reply", to: post, token: other)
        #expect(watch.waitUntil(timeout: .seconds(5)) { $0.lines.count >= 3 }, "stderr: \(watch.stderr)")
        #expect(ContinuousClock.now - written < .seconds(1))
        let events = watch.jsonLines.map { "\($0["event"]!) \(($0["post"] as! [String: Any])["text"]!)" }
        #expect(events == ["added Free coffee", "added first reply", "added second reply"], "\(watch.lines)")
        let deleted = try server.send("DELETE", "/classes/Posts/\(first)", headers: Self.headers(other))
        #expect(deleted.status == 200, "\(deleted)")
        #expect(watch.waitUntil(timeout: .seconds(5)) { $0.lines.count >= 4 }, "stderr: \(watch.stderr)")
        let removed = watch.jsonLines.dropFirst(3).map { "\($0["event"]!) \(($0["post"] as! [String: Any])["objectId"]!)" }
        #expect(removed == ["removed \(first)"], "\(watch.lines)")
        #expect(!watch.stderr.contains("asking the wall again"), "\(watch.stderr)")
    }

    @Test("thread --watch beyond the filter radius of the thread's post: a pushed reply is listed without text or author, as thread lists it")
    func threadFromAfarHidesText() throws {
        let (box, server, other, post) = try sandbox()
        let far = ["--at", "\(Self.origin.latitude + 0.05),\(Self.origin.longitude)"]
        let watch = try LiveProcess(box, ["thread", post, "--watch", "--ndjson"] + far)
        defer { end(watch) }
        #expect(watch.waitUntil { $0.lines.count >= 1 }, "stderr: \(watch.stderr)")
        Thread.sleep(forTimeInterval: 0.5)
        try reply(server, "a secret reply", to: post, token: other)
        #expect(watch.waitUntil(timeout: .seconds(5)) { $0.lines.count >= 2 }, "stderr: \(watch.stderr)")
        let pushed = try #require(watch.jsonLines.last?["post"] as? [String: Any])
        #expect(pushed["visible"] as? Bool == false && pushed["text"] is NSNull && pushed["author"] is NSNull, "\(pushed)")
        #expect(!watch.lines.joined().contains("secret"))
        #expect(!watch.stderr.contains("asking the wall again"), "\(watch.stderr)")
    }

    @Test("activity --watch: another's vote, then reply, on my post print as votes and reply entries as they happen")
    func activityPushesVotesAndReplies() throws {
        let (box, server, other, post) = try sandbox()
        let watch = try LiveProcess(box, ["activity", "--watch", "--ndjson"])
        defer { end(watch) }
        Thread.sleep(forTimeInterval: 0.7)
        var written = ContinuousClock.now
        let vote = try server.send("POST", "/classes/Activity", headers: Self.headers(other),
                                   json: ["type": "vote", "post": Self.pointer(post), "value": 1, "location": Self.place])
        #expect(vote.status == 201, "\(vote)")
        #expect(watch.waitUntil(timeout: .seconds(5)) { $0.lines.count >= 1 }, "stderr: \(watch.stderr)")
        #expect(ContinuousClock.now - written < .seconds(1))
        written = ContinuousClock.now
        try reply(server, "I'll be there", to: post, token: other)
        #expect(watch.waitUntil(timeout: .seconds(5)) { $0.lines.count >= 2 }, "stderr: \(watch.stderr)")
        #expect(ContinuousClock.now - written < .seconds(1))
        let entries = watch.jsonLines
        #expect(entries.map { $0["type"] as? String } == ["votes", "reply"], "\(watch.lines)")
        #expect(entries.first?["up"] as? Int == 1)
        #expect((entries.last?["reply"] as? [String: Any])?["text"] as? String == "I'll be there")
        #expect(!watch.stderr.contains("asking the wall again"), "\(watch.stderr)")
        // Remembered as shown: a plain 'activity' after it has nothing new.
        end(watch)
        #expect(try box.run(["activity", "--ndjson"]).stdout.isEmpty)
    }

    @Test("the server restarted under thread --watch: a reply written as it comes back prints once, and so does one after")
    func threadSurvivesRestart() throws {
        let (box, server, other, post) = try sandbox()
        let watch = try LiveProcess(box, ["thread", post, "--watch", "--ndjson"] + Self.here)
        defer { end(watch) }
        #expect(watch.waitUntil { $0.lines.count >= 1 }, "stderr: \(watch.stderr)")
        Thread.sleep(forTimeInterval: 0.5)
        _ = server.stop()
        try server.start()
        try reply(server, "while the watch was away", to: post, token: other)
        #expect(watch.waitUntil(timeout: .seconds(15)) { $0.lines.count >= 2 }, "stderr: \(watch.stderr)")
        try reply(server, "after it came back", to: post, token: other)
        #expect(watch.waitUntil(timeout: .seconds(10)) { $0.lines.count >= 3 }, "stderr: \(watch.stderr)")
        Thread.sleep(forTimeInterval: 0.5)
        let events = watch.jsonLines.map { "\($0["event"]!) \(($0["post"] as! [String: Any])["text"]!)" }
        #expect(events == ["added Free coffee", "added while the watch was away", "added after it came back"], "\(watch.lines) \(watch.stderr)")
        #expect(!watch.stderr.contains("asking the wall again"), "\(watch.stderr)")
    }

    @Test("no LiveQuery to be had: thread --watch and activity --watch ask every --interval, and say so once (on the embedded wall, the user's own file, without a word)",
          arguments: [WallKind.embedded, .server])
    func fallsBackToAsking(kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("me")
        let environment = kind == .server ? ["PARSE_LIVE_QUERY_URL": "ws://127.0.0.1:\(try Loopback.freePort())/"] : [:]
        let post = try box.run(["post", "Free coffee"] + Self.here, environment: environment).stdout.trimmingCharacters(in: .newlines)
        let thread = try LiveProcess(box, ["thread", post, "--watch", "--ndjson", "--interval", "300ms"] + Self.here, environment: environment)
        defer { end(thread) }
        let activity = try LiveProcess(box, ["activity", "--watch", "--ndjson", "--interval", "300ms"], environment: environment)
        defer { end(activity) }
        if kind == .server {
            for watch in [thread, activity] { #expect(watch.waitUntil { $0.stderr.contains("asking the wall again every 0.3 s") }, "\(watch.stderr)") }
        }
        try box.signUp("other")
        let replied = try box.run(["reply", post, "On my way"] + Self.here, environment: environment)
        #expect(replied.status == 0, "\(replied)")
        #expect(thread.waitUntil(timeout: .seconds(5)) { $0.lines.contains { $0.contains("On my way") } }, "\(thread.lines) \(thread.stderr)")
        #expect(activity.waitUntil(timeout: .seconds(5)) { $0.lines.contains { $0.contains("On my way") } }, "\(activity.lines) \(activity.stderr)")
        #expect(thread.jsonLines.map { $0["event"] as? String } == ["added", "added"])
        #expect(activity.jsonLines.map { $0["type"] as? String } == ["reply"])
        for watch in [thread, activity] {
            #expect(watch.stderr.components(separatedBy: "asking the wall again").count == (kind == .server ? 2 : 1), "once: \(watch.stderr)")
        }
    }
}
