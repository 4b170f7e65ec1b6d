import WallDomain

/// How a store names the tables and columns of posts, users and roles, and how it makes text
/// compare byte by byte (as Parse compares it), so that `RecordConditionSQL` maps every built-in
/// field to its column once for every store.
public struct RecordColumns: Sendable {
    /// How a store spells a name of more than one word: `objectId` or `object_id`.
    public enum Naming: Sendable {
        case camelCase, snakeCase

        /// The name made of `words`, in this spelling.
        public func spell(_ words: String...) -> String {
            switch self {
            case .camelCase: return words.first! + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            case .snakeCase: return words.joined(separator: "_")
            }
        }
    }

    /// How the column names are spelled.
    public let naming: Naming
    public let posts: String
    public let users: String
    /// The roles (`id`, `objectId`, `name`) and their users (`memberRole`, and `author`'s name for the user).
    public let roles: String
    public let roleMembers: String
    public let memberRole: String
    /// The columns both tables have.
    public let objectId: String
    public let createdAt: String
    public let updatedAt: String
    /// A post's author (a user's row id) and thread post (a post's row id).
    public let author: String
    public let parent: String
    public let replyCount: String
    public let reportCount: String
    /// What follows a text expression so that it compares byte by byte.
    public let byteOrder: String

    /// A store's tables, its columns spelled by `naming` from the same words on every store.
    public init(posts: String, users: String, roles: String, roleMembers: String, naming: Naming, byteOrder: String) {
        self.naming = naming
        self.posts = posts
        self.users = users
        self.roles = roles
        self.roleMembers = roleMembers
        memberRole = naming.spell("role", "id")
        objectId = naming.spell("object", "id")
        createdAt = naming.spell("created", "at")
        updatedAt = naming.spell("updated", "at")
        author = naming.spell("user", "id")
        parent = naming.spell("parent", "id")
        replyCount = naming.spell("reply", "count")
        reportCount = naming.spell("report", "count")
        self.byteOrder = byteOrder
    }

    /// The expression of a field of `recordClass`, text compared and sorted byte by byte; an added
    /// field as `extraField` reads it (each store keeps them its own way).
    func column(_ field: RecordField, of recordClass: RecordClass, extraField: (String) -> String) -> String {
        let table = recordClass == .posts ? posts : users
        switch field {
        case .objectId: return "\(table).\(objectId)\(byteOrder)"
        case .createdAt: return "\(table).\(createdAt)"
        // A user is never edited: its updatedAt is its createdAt, as a post's until it is edited.
        case .updatedAt: return recordClass == .posts ? "coalesce(\(posts).\(updatedAt), \(posts).\(createdAt))" : "\(users).\(createdAt)"
        case .text: return "\(posts).text\(byteOrder)"
        case .user: return "(SELECT author.\(objectId) FROM \(users) AS author WHERE author.id = \(posts).\(author))\(byteOrder)"
        case .parent: return "(SELECT thread.\(objectId) FROM \(posts) AS thread WHERE thread.id = \(posts).\(parent))\(byteOrder)"
        case .score: return "\(posts).score"
        case .replyCount: return "\(posts).\(replyCount)"
        case .reportCount: return "\(posts).\(reportCount)"
        case .removed: return "\(posts).removed\(byteOrder)"
        case .username: return "\(users).username\(byteOrder)"
        case .name: return "\(users).name\(byteOrder)"
        case .extra(let name): return extraField(name)
        }
    }
}
