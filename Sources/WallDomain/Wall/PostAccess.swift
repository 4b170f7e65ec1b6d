/// Who may read and who may change a post: Parse's ACL, for everyone (`*`) and for users by
/// objectId, kept as it was given so that it comes back the same. A post saved without an ACL has
/// none, and is everyone's to read and to write, as Parse keeps it; anywall's own client asks for
/// Anywall's: everyone reads, only the author writes. Roles are not kept: an ACL naming one is
/// refused.
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

    /// The rights an ACL gives, refused (`AnywallError.inputRejected`) when it names a role or
    /// anything but `*` and objectIds.
    public init(acl: [String: Rights]) throws(AnywallError) {
        for principal in acl.keys where principal != "*" {
            guard !principal.hasPrefix("role:") else { throw .inputRejected("anywall-server keeps no roles: \(principal) cannot be in an ACL") }
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

    /// Whether `userId` (nil: nobody signed in) may read the post.
    public func mayRead(_ userId: String?) -> Bool {
        readers.map { list in userId.map(list.contains) ?? false } ?? true
    }

    /// Whether `userId` may change or delete the post.
    public func mayWrite(_ userId: String?) -> Bool {
        writers.map { list in userId.map(list.contains) ?? false } ?? true
    }
}
