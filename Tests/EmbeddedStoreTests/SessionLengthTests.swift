import EmbeddedStore
import Foundation
import Testing
import TestSupport
import WallDomain

/// Sessions end after the session length (Parse Server's `sessionLength`), a year by default.
@Suite("Session length")
struct SessionLengthTests {
    final class Clock: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_790_000_000)
    }

    @Test("a session is good until its length has passed, then it has expired")
    func expires() throws {
        let clock = Clock()
        let wall = try temporaryWall(clock: WallClock { clock.now }, sessionLength: .seconds(3600))
        let session = try wall.signUp(username: "alice", password: "pw", name: nil)
        clock.now += 3599
        #expect(try wall.currentUser(session).username == "alice")
        clock.now += 2
        #expect(throws: AnywallError.sessionExpired) { try wall.currentUser(session) }
        #expect(throws: AnywallError.sessionExpired) {
            try wall.createPost(text: "late", at: try GeoPoint(latitude: 1, longitude: 1), session: session, requestId: "r")
        }
        // Logging in again opens a new one.
        #expect(try wall.currentUser(try wall.logIn(username: "alice", password: "pw")).username == "alice")
    }

    @Test("the default is a year, as Parse Server's")
    func defaultLength() {
        #expect(EmbeddedWall.defaultSessionLength == .seconds(365 * 24 * 3600))
    }
}
