import Foundation
import ParseWire
import WallDomain

/// Where anywall-server keeps its wall: users and their sessions, posts, the request ids already
/// done, and the config. The routes know only this; each store (the SQLite file, PostgreSQL)
/// gives the same answers and throws the same `AnywallError` cases, which the routes turn into
/// Parse's answers.
package protocol WallStore: Sendable {
    /// The config's parameters as stored: none on a new wall.
    func configParams() async throws -> [String: JSONValue]
    /// Sets each of `params`, already validated, keeping the others.
    func setConfigParams(_ params: [String: JSONValue]) async throws
    /// The config as the wall's rules read it (a post's length, the filter distances).
    func config() async throws -> RemoteConfig

    /// The page of posts `query` asks for, and the count of all it matches when it asks for one.
    /// `reader` is the session asking, if any: a store with replicas shows it its own writes.
    func find(_ query: PostQuery, for reader: String?) async throws -> (posts: [StoredPost], count: Int?)
    /// The post with `objectId`, if there is one.
    func post(objectId: String, for reader: String?) async throws -> StoredPost?
    /// A new post by the user of the session `token`; a `requestId` already done is refused
    /// (`AnywallError.duplicateRequest`).
    func createPost(text: String, at location: GeoPoint, token: String, requestId: String?) async throws -> StoredPost
    /// Changes the text or the place of a post of the session's user; answers when it changed.
    func updatePost(objectId: String, text: String?, location: GeoPoint?, token: String, requestId: String?) async throws -> Date
    /// Deletes a post of the session's user.
    func deletePost(objectId: String, token: String) async throws

    /// The user of the session `token`, while the session lasts.
    func user(token: String) async throws -> StoredUser
    /// A new account, and a session for it.
    func signUp(username: String, password: String, name: String?) async throws -> (session: Session, user: StoredUser)
    /// A new session for an account whose password this is.
    func logIn(username: String, password: String) async throws -> (session: Session, user: StoredUser)
    /// Ends the session `token`.
    func endSession(token: String) async throws

    /// Forgets the request ids done before `date`: a retry after it is taken as new.
    func forgetRequestIds(before date: Date) async throws
}
