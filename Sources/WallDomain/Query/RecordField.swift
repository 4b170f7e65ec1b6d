/// A field of a record as a query names it: the fields every record has, each class's own, and
/// the fields clients add to posts, kept by name and typed by the class's schema.
public enum RecordField: Hashable, Sendable {
    case objectId, createdAt, updatedAt
    /// A post's text.
    case text
    /// A post's author: the `user` Pointer, compared by the user's objectId.
    case user
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
        case .user: return .pointer
        case .extra: return nil
        }
    }
}

/// The classes a query can ask for.
public enum RecordClass: String, Sendable {
    case posts = "Posts"
    case users = "_User"

    /// Names a client cannot give a field of its own: Parse's and the class's.
    public var reservedNames: Set<String> {
        let parse: Set<String> = ["objectId", "createdAt", "updatedAt", "ACL"]
        switch self {
        case .posts: return parse.union(["text", "location", "user"])
        case .users: return parse.union(["username", "password", "name", "email", "emailVerified", "authData", "sessionToken"])
        }
    }
}
