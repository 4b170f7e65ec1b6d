import Foundation

/// An account as a wall keeps it, less its password: what a server may tell about a user.
public struct StoredUser: Hashable, Sendable {
    public let objectId: String
    public let username: String
    public let name: String?
    public let createdAt: Date

    public init(objectId: String, username: String, name: String?, createdAt: Date) {
        self.objectId = objectId
        self.username = username
        self.name = name
        self.createdAt = createdAt
    }
}
