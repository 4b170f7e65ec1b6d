/// An account on a wall.
public struct User: Equatable, Sendable, Codable {
    public let objectId: String
    public let username: String
    /// The display name, shown as the author when set.
    public let name: String?

    public init(objectId: String, username: String, name: String?) {
        self.objectId = objectId
        self.username = username
        self.name = name
    }

    /// How posts show this user: the name, else the username.
    public var displayName: String { name ?? username }
}
