import Foundation
import TestSupport
import Testing

/// The outbox's progress is saved after each delivered post: anywall killed with SIGKILL while it
/// delivers resends at most the post that was in flight, and loses none, even to a server that
/// takes every request as new (anywall-server `--no-request-ids`, as Parse Server without
/// idempotency).
@Suite("anywall killed while delivering the outbox")
struct KilledDeliveryTests {
    @Test("50 queued posts, SIGKILL mid-delivery with a post in flight: none lost, at most one twice")
    func killedMidDelivery() throws {
        let box = try Sandbox()
        let server = try WallServer(store: box.home.appendingPathComponent("server-wall.sqlite"), arguments: ["--no-request-ids"])
        let environment = Sandbox.parseEnvironment(server.parseURL)
        #expect(try box.run(["signup", "--username", "alice", "--password-stdin"], input: "pw-alice\n", environment: environment).status
            == Exit.success)
        server.stop()
        let texts = (1...50).map { "queued post \($0)" }
        for text in texts {
            #expect(try box.run(["post", text, "--at", "40,-74"], environment: environment).status == Exit.success)
        }
        try server.start()

        let delivering = try LiveProcess(box, ["whoami"], environment: environment)
        // Freeze the server once some posts are in, so that the next one is in flight, unanswered,
        // when anywall is killed; the server then stores it and its answer is lost.
        let created = { server.logEvents.filter { $0["method"] as? String == "POST" && $0["status"] as? Int == 201 }.count }
        #expect(Self.waitUntil { created() >= 10 }, "delivery did not start: \(delivering.stderr)")
        server.signal(SIGSTOP)
        Thread.sleep(forTimeInterval: 0.3)
        delivering.signal(SIGKILL)
        _ = delivering.finish()
        server.signal(SIGCONT)
        #expect(created() < 50, "the kill came after delivery ended")

        let rest = try box.run(["whoami"], environment: environment)
        #expect(rest.status == Exit.success, "\(rest)")
        let outbox = try box.run(["outbox", "show", "--json"]).json as? [String: Any]
        #expect((outbox?["waiting"] as? [Any])?.isEmpty == true, "\(String(describing: outbox))")
        let stored = try server.send("GET", "/classes/Posts", query: ["limit": "1000"]).json["results"] as? [[String: Any]] ?? []
        let counts = Dictionary(stored.compactMap { $0["text"] as? String }.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(texts.allSatisfy { counts[$0] != nil }, "lost: \(texts.filter { counts[$0] == nil })")
        #expect(counts.values.filter { $0 > 1 }.count <= 1 && counts.values.allSatisfy { $0 <= 2 }, "\(counts.filter { $0.value > 1 })")
        #expect(server.stop() == 0)
    }

    private static func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return false
    }
}
