/// Who may read and who may change a post: the ACL every anywall post has (Anywall's): everyone
/// reads it, only its author changes or deletes it. The server refuses any other ACL a client
/// asks for, and every store asks `mayChange` before it changes a post.
public enum PostAccess {
    /// What one principal (`*` for everyone, or a user's objectId) may do with a post.
    public struct Rights: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let read = Rights(rawValue: 1)
        public static let write = Rights(rawValue: 2)
    }

    /// Whether the user `userId` may change or delete a post by `authorId` (nil: the author's
    /// account is gone, and nobody may).
    public static func mayChange(authorId: String?, userId: String) -> Bool {
        authorId == userId
    }

    /// Whether an ACL a client sends with a post by `authorId` is the one posts have: read for
    /// everyone, write for nobody but the author.
    public static func accepts(_ acl: [String: Rights], authorId: String) -> Bool {
        guard let everyone = acl["*"], everyone == .read else { return false }
        return acl.allSatisfy { principal, rights in principal == "*" || principal == authorId || !rights.contains(.write) }
    }
}
