/// One wall, wherever it is kept: the embedded SQLite file, a Parse Server, or anywall-server.
/// Every backend gives the same answers to the same calls.
public protocol WallBackend: AnyObject {
    /// Names the wall (`embedded:/path/wall.sqlite`, a server URL): sessions, caches and saved
    /// results belong to one wall and are not used with another.
    var identity: String { get }
    /// Names the wall for people: "the embedded wall /path", "the Parse Server at URL".
    var description: String { get }
    /// Whether the wall is on another machine, so that it may be out of reach (and results are cached,
    /// posts queued).
    var isRemote: Bool { get }

    /// Creates an account and opens a session for it.
    func signUp(username: String, password: String, name: String?) throws -> Session
    /// Opens a session for an existing account.
    func logIn(username: String, password: String) throws -> Session
    /// Ends the session on the backend.
    func logOut(_ session: Session) throws
    /// The user the session belongs to, or `sessionExpired` when it was revoked.
    func currentUser(_ session: Session) throws -> User

    /// Leaves a post at a place, as the session's user. `requestId` names this one post: a remote
    /// backend that has seen it already throws `AnywallError.duplicateRequest` instead of posting it twice.
    func createPost(text: String, at location: GeoPoint, session: Session, requestId: String) throws -> Post
    /// The posts nearest the query's center within its search distance, nearest first, at most
    /// `limit`, authors included.
    func nearby(_ query: WallQuery) throws -> [Post]

    /// The wall's shared config.
    func fetchConfig() throws -> RemoteConfig
    /// Sets one config parameter; `masterKey` is for backends that ask for one.
    func setConfig(_ key: String, to value: JSONValue, masterKey: String?) throws -> RemoteConfig
    /// Removes one config parameter (Anywall's own then read as their defaults); `masterKey` as for `setConfig`.
    func unsetConfig(_ key: String, masterKey: String?) throws -> RemoteConfig
    /// Prepares a new wall (the posts class, the default config), keeping what is already there.
    func initialize(masterKey: String?) throws -> RemoteConfig
}
