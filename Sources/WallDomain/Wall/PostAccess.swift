/// Who may read and who may change a post: Parse's ACL, for everyone (`*`) and for users by
/// objectId. A post saved without an ACL is everyone's to read and to write, as Parse keeps it;
/// anywall's own client asks for Anywall's: everyone reads, only the author writes. Roles are not
/// kept: an ACL naming one is refused.
public struct PostAccess: Hashable, Sendable {
    /// What one principal (`*` for everyone, or a user's objectId) may do with a post.
    public struct Rights: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let read = Rights(rawValue: 1)
        public static let write = Rights(rawValue: 2)
    }

    /// The users who may read, or nil when everyone may.
    public let readers: Set<String>?
    /// The users who may change or delete, or nil when everyone may.
    public let writers: Set<String>?

    public init(readers: Set<String>?, writers: Set<String>?) {
        self.readers = readers
        self.writers = writers
    }

    /// Parse's default for an object saved without an ACL.
    public static let everyone = PostAccess(readers: nil, writers: nil)

    /// Anywall's: everyone reads, only `author` writes.
    public static func publicRead(author: String) -> PostAccess {
        PostAccess(readers: nil, writers: [author])
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
        func holders(_ right: Rights) -> Set<String>? {
            acl["*"]?.contains(right) == true ? nil : Set(acl.filter { $0.key != "*" && $0.value.contains(right) }.keys)
        }
        self.init(readers: holders(.read), writers: holders(.write))
    }

    /// The ACL as Parse writes it: only the rights given.
    public var acl: [String: Rights] {
        var entries: [String: Rights] = [:]
        if readers == nil { entries["*", default: []].insert(.read) }
        if writers == nil { entries["*", default: []].insert(.write) }
        for reader in readers ?? [] { entries[reader, default: []].insert(.read) }
        for writer in writers ?? [] { entries[writer, default: []].insert(.write) }
        return entries
    }

    /// Whether `userId` (nil: nobody signed in) may read the post.
    public func mayRead(_ userId: String?) -> Bool {
        readers.map { list in userId.map(list.contains) ?? false } ?? true
    }

    /// Whether `userId` may change or delete the post.
    public func mayWrite(_ userId: String?) -> Bool {
        writers.map { list in userId.map(list.contains) ?? false } ?? true
    }

    /// The readers as the stores keep them in a text column: each id between spaces, so
    /// `' id '` is found in it; NULL (nil) for everyone, the posts the nearest search skims.
    public var storedReaders: String? {
        readers.map(Self.listText)
    }

    /// The writers as the stores keep them: NULL for the author alone, Anywall's rule and what
    /// every post imported or left before ACLs has; `" * "` for everyone.
    public func storedWriters(author: String?) -> String? {
        guard let writers else { return " * " }
        return author.map { writers == [$0] } == true ? nil : Self.listText(writers)
    }

    /// The access the stores' two columns keep for a post by `author`.
    public init(storedReaders: String?, storedWriters: String?, author: String?) {
        func users(_ text: String) -> Set<String> { Set(text.split(separator: " ").map(String.init)) }
        let writers: Set<String>?
        switch storedWriters {
        case nil: writers = Set(author.map { [$0] } ?? [])
        case " * "?: writers = nil
        case let list?: writers = users(list)
        }
        self.init(readers: storedReaders.map(users), writers: writers)
    }

    private static func listText(_ users: Set<String>) -> String {
        " " + users.sorted().joined(separator: " ") + " "
    }
}
