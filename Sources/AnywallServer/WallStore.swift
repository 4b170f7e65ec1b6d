import Foundation
import ParseWire
import WallDomain

/// Where anywall-server keeps its wall: users and their sessions, posts, the request ids already
/// done, the config, and the social layer (`SocialStore`: replies, votes, reports, roles). The
/// routes know only this; each store (the SQLite file, PostgreSQL) gives the same answers and
/// throws the same `AnywallError` cases, which the routes turn into Parse's answers.
package protocol WallStore: SocialStore {
    /// The config's parameters as stored: none on a new wall.
    func configParams() async throws -> [String: JSONValue]
    /// The config keys only the master key reads.
    func masterKeyOnlyParams() async throws -> Set<String>
    /// Sets each of `params`, already validated, removes those named in `deleting`, and marks each
    /// key of `masterKeyOnly` as read with the master key only or not, keeping the others.
    func setConfigParams(_ params: [String: JSONValue], deleting: Set<String>, masterKeyOnly: [String: Bool]) async throws
    /// The config as the wall's rules read it (a post's length, the filter distances).
    func config() async throws -> RemoteConfig

    /// The page of posts `query` asks for (of those its reader may read), and the count of all it
    /// matches when it asks for one. `session` is the caller's session token, if any: a store with
    /// replicas shows it its own writes.
    func find(_ query: PostQuery, session: String?) async throws -> (posts: [StoredPost], count: Int?)
    /// The post with `objectId`, if there is one, whoever may read it.
    func post(objectId: String, session: String?) async throws -> StoredPost?
    /// A new post by `writer`: the user of its session, or no one for the master key alone; a
    /// `requestId` already done is refused (`AnywallError.duplicateRequest`), a field of another
    /// type than the schema's too (`AnywallError.fieldTypeMismatch`).
    func createPost(_ draft: PostDraft, by writer: PostWriter, requestId: String?) async throws -> StoredPost
    /// Changes a post `writer` may write; answers when it changed and its added fields after the change.
    func updatePost(objectId: String, changes: PostChanges, by writer: PostWriter, requestId: String?) async throws -> (updatedAt: Date, fields: [String: JSONValue])
    /// Deletes a post `writer` may write.
    func deletePost(objectId: String, by writer: PostWriter) async throws
    /// The types of the fields clients added to posts.
    func postSchema() async throws -> PostSchema
    /// Adds fields to the Posts schema, and deletes fields with their values from every post.
    func changePostFields(adding types: [String: FieldType], deleting names: Set<String>) async throws

    /// Accounts that meet `condition`, in the order they were made, skipping `skip`, at most
    /// `limit`; and how many meet it.
    func users(where condition: RecordCondition, skip: Int, limit: Int, session: String?) async throws -> (users: [StoredUser], count: Int)
    /// When the session `token` began and when it ends.
    func sessionPeriod(token: String) async throws -> (started: Date, expires: Date)
    /// The user of the session `token`, while the session lasts.
    func user(token: String) async throws -> StoredUser
    /// A new account, and a session for it.
    func signUp(username: String, password: String, name: String?) async throws -> (session: Session, user: StoredUser)
    /// A new session for an account whose password this is.
    func logIn(username: String, password: String) async throws -> (session: Session, user: StoredUser)
    /// Changes the account `objectId`'s username, password (ending its other sessions, keeping
    /// `token`'s) or name (`.some(nil)` removes it).
    func updateAccount(objectId: String, username: String?, password: String?, name: String??, keepingSession token: String?) async throws
    /// Deletes the account `objectId` and its sessions; its posts stay, without an author.
    func deleteAccount(objectId: String) async throws

    /// The accounts (at most two) that log in with any of `identities` (Parse's `authData`).
    func accounts(with identities: [AuthIdentity]) async throws -> [StoredUser]
    /// The identities the account `objectId` logs in with, by provider.
    func identities(ofUser objectId: String) async throws -> [AuthIdentity]
    /// A new account that logs in with `identities` (and `password`, when given), and a session;
    /// `username` or a random one. `identityTaken` when another account got one first.
    func signUp(identities: [AuthIdentity], username: String?, password: String?, name: String?) async throws -> (session: Session, user: StoredUser)
    /// A new session for the account `objectId`, which logged in with `identities` (kept as sent now).
    func logIn(objectId: String, identities: [AuthIdentity]) async throws -> (session: Session, user: StoredUser)
    /// Links `linking` to the account `objectId` and unlinks the providers `unlinking`, at once;
    /// `identityTaken`, or `lastWayToLogIn` when no password and no identity would be left.
    func changeIdentities(ofUser objectId: String, linking: [AuthIdentity], unlinking: Set<String>) async throws
    /// Ends the session `token`.
    func endSession(token: String) async throws

    /// Forgets the request ids done before `date`: a retry after it is taken as new.
    func forgetRequestIds(before date: Date) async throws

    /// The writes to posts after `seq`, at most `limit`, in the order they were committed, with
    /// each post before and after: what LiveQuery reads (`LiveQueryHub`).
    func postChanges(after seq: Int64, limit: Int) async throws -> PostChangePage
    /// Forgets the changes made before `date`, and the oldest beyond `bytes` of posts' copies.
    func pruneChanges(before date: Date, keepingAtMost bytes: Int) async throws
    /// Calls `changed` whenever any process announces a write, until the announcements are lost;
    /// returns at once where writes are not announced (the log is then read every `changePollInterval`).
    func listenForChanges(_ changed: @escaping @Sendable () -> Void) async throws
    /// How often LiveQuery reads the log when no write is announced: the longest a write by
    /// another process (a second server, the CLI on the same file) waits for its events.
    var changePollInterval: Duration { get }
}
