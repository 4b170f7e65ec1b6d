import WallDomain
import WallStorage

/// PostgreSQL's SQL for `RecordConditionSQL`: the `posts` and `users` tables, added fields read
/// from `posts.fields` (jsonb) as their schema types, text compared byte by byte (`COLLATE "C"`)
/// as SQLite compares it, and `$regex` as PostgreSQL's own regular expressions.
struct PostgresSQLDialect: RecordSQLDialect {
    var columns: RecordColumns {
        RecordColumns(posts: "posts", users: "users", objectId: "object_id", createdAt: "created_at", updatedAt: "updated_at", author: "user_id",
                      parent: "parent_id", replyCount: "reply_count", reportCount: "report_count", byteOrder: " COLLATE \"C\"")
    }

    func extraField(_ name: String, as type: FieldType) -> String {
        // Names are letters, digits and `_` (`FieldType.isFieldName`): safe inside the literal.
        switch type {
        case .number: return "(posts.fields->>'\(name)')::float8"
        case .boolean: return "(posts.fields->>'\(name)')::boolean"
        case .date: return "(posts.fields->'\(name)'->>'iso') COLLATE \"C\""
        case .pointer: return "(posts.fields->'\(name)'->>'objectId') COLLATE \"C\""
        default: return "(posts.fields->>'\(name)') COLLATE \"C\""
        }
    }

    func arrayContains(_ name: String, _ placeholder: String) -> String {
        "coalesce(posts.fields->'\(name)' @> jsonb_build_array(\(placeholder)), false)"
    }

    var roleTables: RoleTables {
        RoleTables(roles: "roles", roleObjectId: "object_id", roleName: "name", members: "role_users", memberRole: "role_id", memberUser: "user_id",
                   users: "users", userObjectId: "object_id")
    }

    func placeholder(_ number: Int) -> String { "$\(number)" }

    func literal(_ value: Bool) -> String { value ? "true" : "false" }

    func contains(_ list: String, _ placeholder: String) -> String { "strpos(\(list), \(placeholder)) > 0" }

    /// PostgreSQL's embedded options stand for MongoDB's: `p` (Mongo's default: `.` stops at a
    /// line break, `^` and `$` only at the ends), `n` for `m`, `s` for `s`, `w` for both.
    func matches(_ expression: String, _ pattern: TextPattern, placeholder: String) -> String {
        var flags: String
        switch (pattern.multiline, pattern.dotMatchesNewlines) {
        case (false, false): flags = "p"
        case (true, false): flags = "n"
        case (false, true): flags = "s"
        case (true, true): flags = "w"
        }
        if pattern.ignoresCase { flags += "i" }
        if pattern.extended { flags += "x" }
        return "\(expression) ~ ('(?\(flags))' || \(placeholder))"
    }

    func sortTerm(_ expression: String, descending: Bool) -> String {
        expression + (descending ? " DESC NULLS LAST" : " ASC NULLS FIRST")
    }

    func authorAmong(usersWhere condition: String) -> String {
        "posts.user_id IN (SELECT users.id FROM users WHERE \(condition))"
    }
}
