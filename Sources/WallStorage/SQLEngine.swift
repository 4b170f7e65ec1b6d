/// The SQL engines the stores run on, and how each spells what `RecordConditionSQL` writes: the
/// same words for the tables and columns, the placeholders, the text functions.
public enum SQLEngine: Sendable {
    case sqlite, postgres

    /// The tables and columns of posts, users and roles.
    public var columns: RecordColumns {
        switch self {
        case .sqlite: Self.sqliteColumns
        case .postgres: Self.postgresColumns
        }
    }

    /// Whether placeholders are numbered (`$1`) rather than all `?`.
    var numbersPlaceholders: Bool { self == .postgres }

    /// The function that gives where a text stands in another, from 1 (0: nowhere).
    var textPositionFunction: String { self == .sqlite ? "instr" : "strpos" }

    // BINARY: usernames are unique ignoring case, but a query compares them as Parse does.
    private static let sqliteColumns = RecordColumns(posts: "post", users: "user", roles: "role", roleMembers: "roleUser",
                                                     naming: .camelCase, byteOrder: " COLLATE BINARY")
    private static let postgresColumns = RecordColumns(posts: "posts", users: "users", roles: "roles", roleMembers: "role_users",
                                                       naming: .snakeCase, byteOrder: " COLLATE \"C\"")
}
