import Foundation

/// A Parse role (`_Role`) as a server keeps it: a name that ACLs name it by (`role:NAME`), its
/// own ACL, and its users (the `users` relation, kept apart).
public struct StoredRole: Equatable, Sendable {
    public let objectId: String
    public let name: String
    /// The role's own ACL, as it was given.
    public let acl: [String: PostAccess.Rights]
    public let createdAt: Date
    /// When its users last changed.
    public let updatedAt: Date

    public init(objectId: String, name: String, acl: [String: PostAccess.Rights], createdAt: Date, updatedAt: Date) {
        self.objectId = objectId
        self.name = name
        self.acl = acl
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
