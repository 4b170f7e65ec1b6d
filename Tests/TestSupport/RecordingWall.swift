import EmbeddedStore
import Foundation
import WallDomain

/// A real embedded wall that counts the queries it answers and can play a remote wall's moods:
/// out of reach, or refusing a post with a given error. A test double only for those moods (an
/// outage or a server's refusal cannot be made on a local file); every answer it gives comes from
/// the real wall.
package final class RecordingWall: WallBackend, @unchecked Sendable {
    package let wall: EmbeddedWall
    package var isRemote: Bool
    /// While true, every call fails as a wall out of reach does.
    package var offline = false
    /// Posts whose text is a key here are refused with its error (a server's 142, or 159 for a request it has seen).
    package var refusals: [String: AnywallError] = [:]
    /// How many nearby queries reached the wall.
    package private(set) var queries = 0
    /// The texts of the posts the wall took, in order.
    package private(set) var posted: [String] = []

    package init(remote: Bool = true, clock: WallClock = .system) throws {
        wall = try temporaryWall(clock: clock)
        isRemote = remote
    }

    package var identity: String { "recording:" + wall.identity }
    package var description: String { "the test wall" }

    private func reach() throws {
        if offline { throw AnywallError.backendUnreachable("the test wall is offline") }
    }

    package func signUp(username: String, password: String, name: String?) throws -> Session {
        try reach()
        return try wall.signUp(username: username, password: password, name: name)
    }

    package func logIn(username: String, password: String) throws -> Session {
        try reach()
        return try wall.logIn(username: username, password: password)
    }

    package func logOut(_ session: Session) throws {
        try reach()
        try wall.logOut(session)
    }

    package func currentUser(_ session: Session) throws -> User {
        try reach()
        return try wall.currentUser(session)
    }

    package func createPost(text: String, at location: GeoPoint, session: Session, requestId: String) throws -> Post {
        try reach()
        if let refusal = refusals[text] { throw refusal }
        let post = try wall.createPost(text: text, at: location, session: session, requestId: requestId)
        posted.append(text)
        return post
    }

    package func nearby(_ query: WallQuery) throws -> [Post] {
        try reach()
        queries += 1
        return try wall.nearby(query)
    }

    package func fetchConfig() throws -> RemoteConfig {
        try reach()
        return try wall.fetchConfig()
    }

    package func setConfig(_ key: String, to value: JSONValue, masterKey: String?) throws -> RemoteConfig {
        try reach()
        return try wall.setConfig(key, to: value, masterKey: masterKey)
    }

    package func unsetConfig(_ key: String, masterKey: String?) throws -> RemoteConfig {
        try reach()
        return try wall.unsetConfig(key, masterKey: masterKey)
    }

    package func initialize(masterKey: String?) throws -> RemoteConfig {
        try reach()
        return try wall.initialize(masterKey: masterKey)
    }
}
