/// A sign-up as every wall takes it: the rules for its username, password and display name
/// checked once, before a store keeps the account.
public struct NewAccount: Sendable {
    public let username: String
    public let password: String
    /// nil for no name.
    public let name: String?

    public init(username: String, password: String, name: String?) throws {
        self.username = try Username.validated(username)
        self.password = try Password.validated(password)
        self.name = try DisplayName.validated(name)
    }
}
