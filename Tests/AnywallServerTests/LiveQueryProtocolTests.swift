import Foundation
import TestSupport
import Testing

/// anywall-server's LiveQuery driven by a plain WebSocket client (`websockets` from PyPI) that
/// speaks Parse's LiveQuery protocol as Parse Server's schema, Client.js and spec tests have it
/// (`Tests/Scripts/livequery_check.py`; no Parse LiveQuery client exists on PyPI). Each run starts
/// its own server, on the store of this run of the suite.
@Suite("anywall-server's LiveQuery, as a WebSocket client speaks it")
struct LiveQueryProtocolTests {
    /// Runs the script's `mode` against a new server started with `arguments`.
    private func check(_ mode: String, arguments: [String] = []) throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-lq-\(UUID().uuidString).sqlite"),
                                    arguments: arguments)
        let run = try LiveQueryCheck.run(mode, against: server)
        #expect(run.status == 0 && run.stdout.contains(" passed, 0 failed"), "\(run.stdout.suffix(4000))\n\(run.stderr.suffix(2000))")
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "\(server.log.suffix(2000))")
    }

    @Test("every message's exact fields; codes 1, 2 and 4 with reconnect; update answered by subscribed; keys and watch; ACLs and roles; enter and leave across a radius and when the centre moves; a snapshot")
    func protocolMessages() throws {
        try check("protocol")
    }

    @Test("random posts, random queries for random readers, random writes: every subscription's snapshot and events agree with a REST find after each write")
    func eventsAgreeWithFinds() throws {
        try check("property")
    }

    @Test("Activity: a post's author hears votes (their voter withheld) and replies as they are made, changed and withdrawn; another user hears nothing; no session, 206")
    func activityEvents() throws {
        try check("activity")
    }

    @Test("a subscriber that dropped its socket while 1,000 posts were written gets exactly those 1,000 with since, in order, none doubled")
    func resumeWithSince() throws {
        try check("resume")
    }

    @Test("a since older than the change log's retention is told to read the wall again")
    func sinceBeyondRetention() throws {
        try check("retention", arguments: ["--live-query-retention", "1"])
    }

    @Test("LiveQuery sockets count in their address's share of connections, as HTTP connections do")
    func socketsCountPerAddress() throws {
        try check("cap", arguments: ["--max-connections-per-address", "3"])
    }

    @Test("a reader that stops reading is closed at its queue's limit, told the seq to resume from, and resuming misses and doubles nothing")
    func slowReaderClosed() throws {
        try check("slow", arguments: ["--live-query-queue-limit", "65536"])
    }
}
