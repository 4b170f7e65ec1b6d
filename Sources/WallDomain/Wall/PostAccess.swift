/// Who may read and who may change a post: Parse's ACL, for everyone (`*`), for users by
/// objectId and for roles (`role:NAME`), kept as it was given so that it comes back the same. A
/// post saved without an ACL has none, and is everyone's to read and to write, as Parse keeps it;
/// anywall's own client asks for Anywall's: everyone reads, only the author writes.
public struct PostAccess: Hashable, Sendable {
    /// What one principal (`*` for everyone, or a user's objectId) may do with a post.
    public struct Rights: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let read = Rights(rawValue: 1)
        public static let write = Rights(rawValue: 2)
    }

    /// Each principal's rights as the ACL gives them (a principal with none is left out, as Parse
    /// leaves it out); nil for a post saved without an ACL.
    public let acl: [String: Rights]?

    private init(entries: [String: Rights]?) {
        acl = entries?.filter { !$0.value.isEmpty }
    }

    /// Parse's default for an object saved without an ACL: no ACL, so everyone reads and writes.
    public static let everyone = PostAccess(entries: nil)

    /// Anywall's: everyone reads, only `author` (who reads too) writes.
    public static func publicRead(author: String) -> PostAccess {
        PostAccess(entries: ["*": .read, author: [.read, .write]])
    }

    /// The rights an ACL gives, refused (`AnywallError.inputRejected`) when it names anything but
    /// `*`, objectIds and roles by a role's name.
    public init(acl: [String: Rights]) throws(AnywallError) {
        for principal in acl.keys where principal != "*" {
            if principal.hasPrefix(Self.rolePrefix) {
                _ = try RoleName.validated(String(principal.dropFirst(Self.rolePrefix.count)))
                continue
            }
            guard !principal.isEmpty, principal.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x80 }) else {
                throw .inputRejected("\(principal) is not a user's objectId")
            }
        }
        self.init(entries: acl)
    }

    /// The access kept as `acl` (nil: none), whose principals were checked when it was given.
    public init(kept acl: [String: Rights]?) {
        self.init(entries: acl)
    }

    /// The users who may read, or nil when everyone may.
    public var readers: Set<String>? { holders(.read) }

    /// The users who may change or delete, or nil when everyone may.
    public var writers: Set<String>? { holders(.write) }

    private func holders(_ right: Rights) -> Set<String>? {
        guard let acl, acl["*"]?.contains(right) != true else { return nil }
        return Set(acl.filter { $0.value.contains(right) }.keys)
    }

    /// How an ACL names a role: `role:` and its name.
    public static let rolePrefix = "role:"

    /// Whether the ACL names a role: who may read then depends on who holds it.
    public var namesRoles: Bool { acl?.keys.contains { $0.hasPrefix(Self.rolePrefix) } ?? false }

    /// Whether `userId` (nil: nobody signed in), holding `roles` (by name), may read the post.
    public func mayRead(_ userId: String?, roles: Set<String> = []) -> Bool {
        readers.map { Self.names(userId, roles, in: $0) } ?? true
    }

    /// Whether `userId`, holding `roles`, may change or delete the post.
    public func mayWrite(_ userId: String?, roles: Set<String> = []) -> Bool {
        writers.map { Self.names(userId, roles, in: $0) } ?? true
    }

    private static func names(_ userId: String?, _ roles: Set<String>, in list: Set<String>) -> Bool {
        guard let userId else { return false }
        return list.contains(userId) || roles.contains { list.contains(rolePrefix + $0) }
    }
}
