import AnywallServer
import Dispatch
import EmbeddedStore
import Foundation
import TestSupport
import Testing
import WallDomain

/// Finds read through connections of their own: one that is still reading holds up neither a
/// post nor another find.
@Suite("The SQLite store shared by the server's requests")
struct SQLiteWallStoreTests {
    @Test("a find still reading does not hold up a post, nor another find that sees the post")
    func longFindHoldsNothing() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-shared-\(UUID().uuidString).sqlite")
        let main = try temporaryWall(file: file)
        let shared = SQLiteWallStore(main, readers: [try temporaryWall(file: file), try temporaryWall(file: file)])
        let session = try main.signUp(username: "alice", password: "pw", name: nil)
        _ = try main.createStoredPost(PostDraft(text: "first", location: try GeoPoint(latitude: 1, longitude: 1)), token: session.token, requestId: "a")

        let reading = DispatchSemaphore(value: 0), posted = DispatchSemaphore(value: 0)
        // A find that stays inside its read (its cursor open) until the post below is in: with one
        // connection for everything, the post would wait for it and the find would time out.
        async let sawPostInTime: Bool = shared.query { wall in
            var waited = false
            try wall.forEachStoredPost(inAny: nil, where: .always) { _ in
                reading.signal()
                waited = posted.wait(timeout: .now() + 10) == .success
            }
            return waited
        }
        try await Task.detached { reading.wait() }.value
        let created = try await shared.run {
            try $0.createStoredPost(PostDraft(text: "second", location: try GeoPoint(latitude: 1, longitude: 1)), token: session.token, requestId: "b")
        }
        let found = try await shared.query { try $0.storedPost(objectId: created.objectId) }
        posted.signal()
        #expect(try await sawPostInTime)
        #expect(found?.text == "second")
    }
}
