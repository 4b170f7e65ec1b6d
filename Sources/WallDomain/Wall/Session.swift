/// A logged-in session: the token that proves it, the user, and the wall it belongs to.
public struct Session: Equatable, Sendable, Codable {
    /// The backend's identity (`WallBackend.identity`) this session was opened on.
    public let backend: String
    public let token: String
    public let user: User

    public init(backend: String, token: String, user: User) {
        self.backend = backend
        self.token = token
        self.user = user
    }
}
