/// A field of a record as a query names it: the fields every record has, each class's own, and
/// the fields clients add to posts, kept by name and typed by the class's schema.
public enum RecordField: Hashable, Sendable {
    case objectId, createdAt, updatedAt
    /// A post's text.
    case text
    /// A post's author: the `user` Pointer, compared by the user's objectId.
    case user
    /// A reply's thread post: the `parent` Pointer, compared by the post's objectId.
    case parent
    /// A post's counters, which only the wall moves.
    case score, replyCount, reportCount
    /// Why a post was removed (`PostRemoval`), when it was.
    case removed
    /// A user's name to log in with, and the name shown.
    case username, name
    /// A field a client added to a post.
    case extra(String)

    /// The field a query names `name` in `recordClass`; nil for one the class cannot be queried by
    /// (a post's `location` is asked with the geo operators, never compared).
    public init?(_ name: String, of recordClass: RecordClass) {
        switch (name, recordClass) {
        case ("objectId", _): self = .objectId
        case ("createdAt", _): self = .createdAt
        case ("updatedAt", _): self = .updatedAt
        case ("text", .posts): self = .text
        case ("user", .posts): self = .user
        case ("parent", .posts): self = .parent
        case ("score", .posts): self = .score
        case ("replyCount", .posts): self = .replyCount
        case ("reportCount", .posts): self = .reportCount
        case ("removed", .posts): self = .removed
        case ("username", .users): self = .username
        case ("name", .users): self = .name
        case (_, .posts) where FieldType.isFieldName(name) && !RecordClass.posts.reservedNames.contains(name): self = .extra(name)
        default: return nil
        }
    }

    /// What values the field holds; nil for an added field (its schema says).
    public var builtInType: FieldType? {
        switch self {
        case .objectId, .text, .username, .name: return .string
        case .createdAt, .updatedAt: return .date
        case .user, .parent: return .pointer
        case .score, .replyCount, .reportCount: return .number
        case .removed: return .string
        case .extra: return nil
        }
    }
}

/// The classes a query can ask for.
public enum RecordClass: String, Sendable {
    case posts = "Posts"
    case users = "_User"

    /// The fields of a post only the wall writes (the master key aside): its counters and its
    /// removal, moved by votes, replies, reports and moderators.
    public static let protectedPostFields: Set<String> = ["score", "replyCount", "reportCount", "removed", "removedAt", "restoredAt"]

    /// Names a client cannot give a field of its own: Parse's and the class's.
    public var reservedNames: Set<String> {
        let parse: Set<String> = ["objectId", "createdAt", "updatedAt", "ACL"]
        switch self {
        case .posts: return parse.union(["text", "location", "user"]).union(Self.protectedPostFields).union(["parent"])
        case .users: return parse.union(["username", "password", "name", "email", "emailVerified", "authData", "sessionToken"])
        }
    }
}
