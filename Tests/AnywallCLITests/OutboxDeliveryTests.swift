import AnywallCLI
import Foundation
import LocalState
import Testing
import TestSupport
import WallDomain

/// Delivering the outbox: oldest first, each with its own request id; a refusal about the post
/// sets it aside, a refusal about the set-up or an outage keeps every post waiting.
@Suite("Outbox delivery")
struct OutboxDeliveryTests {
    let place = try! GeoPoint(latitude: 51.5072, longitude: -0.1276)

    private func setUp(_ texts: [String]) throws -> (RecordingWall, Outbox, Session) {
        let wall = try RecordingWall()
        let session = try wall.signUp(username: "alice", password: "pw", name: nil)
        let outbox = Outbox(directory: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-outbox-\(UUID().uuidString)"))
        for (index, text) in texts.enumerated() {
            try outbox.add(OutboxEntry(requestId: "req-\(index)", backend: wall.identity, user: session.user, text: text,
                                       location: place, queuedAt: Date(timeIntervalSince1970: Double(index))))
        }
        return (wall, outbox, session)
    }

    @Test("every waiting post is sent, oldest first, and the outbox is left empty")
    func deliversInOrder() throws {
        let (wall, outbox, session) = try setUp(["first", "second", "third"])
        let delivery = OutboxDelivery(outbox: outbox, backend: wall)
        let (outcomes, stoppedBy) = try delivery.run(session: session)
        #expect(stoppedBy == nil && outcomes.count == 3)
        #expect(wall.posted == ["first", "second", "third"])
        #expect(try delivery.waiting().isEmpty)
    }

    @Test("a post the wall has already (a duplicate request id) counts as delivered, not sent again")
    func duplicateIsDelivered() throws {
        let (wall, outbox, session) = try setUp(["sent before", "new"])
        wall.refusals["sent before"] = .duplicateRequest(requestId: "req-0")
        let (outcomes, _) = try OutboxDelivery(outbox: outbox, backend: wall).run(session: session)
        guard case .delivered(_, let objectId) = outcomes[0] else { Issue.record("\(outcomes)"); return }
        #expect(objectId == nil)
        #expect(wall.posted == ["new"])
    }

    @Test("an outage or an expired session stops delivery and keeps every post waiting")
    func setUpProblemsKeepPostsWaiting() throws {
        for stop in [AnywallError.backendUnreachable("the test wall is offline"), .sessionExpired] {
            let (wall, outbox, session) = try setUp(["first", "second"])
            if stop == .sessionExpired { wall.refusals["first"] = .sessionExpired } else { wall.offline = true }
            let delivery = OutboxDelivery(outbox: outbox, backend: wall)
            let (outcomes, stoppedBy) = try delivery.run(session: session)
            #expect(outcomes.isEmpty && stoppedBy == stop)
            #expect(try delivery.waiting().map(\.text) == ["first", "second"])
        }
    }

    @Test("a post refused for itself is set aside with the reason; the rest are sent")
    func refusedPostIsSetAside() throws {
        let (wall, outbox, session) = try setUp(["far too long", "fine"])
        wall.refusals["far too long"] = .postRefused(wall: "the test wall", reason: "text is too long")
        let (outcomes, stoppedBy) = try OutboxDelivery(outbox: outbox, backend: wall).run(session: session)
        #expect(stoppedBy == nil && wall.posted == ["fine"])
        guard case .rejected(let entry, let reason) = outcomes[0] else { Issue.record("\(outcomes)"); return }
        #expect(entry.text == "far too long" && reason == "the test wall refused the post: text is too long")
        let rejected = try String(contentsOf: outbox.rejectedFile, encoding: .utf8)
        #expect(rejected.contains("far too long") && rejected.contains("text is too long"))
    }

    @Test("posts another user wrote wait for that user's session")
    func otherUsersPostsWait() throws {
        let (wall, outbox, _) = try setUp(["alice's"])
        let bob = try wall.signUp(username: "bob", password: "pw", name: nil)
        let delivery = OutboxDelivery(outbox: outbox, backend: wall)
        #expect(try delivery.run(session: bob).outcomes.isEmpty)
        #expect(try delivery.waiting().map(\.text) == ["alice's"])
    }
}
