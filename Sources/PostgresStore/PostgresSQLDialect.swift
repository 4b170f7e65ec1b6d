import WallDomain
import WallStorage

/// PostgreSQL's SQL for `RecordConditionSQL`: the `posts` and `users` tables, added fields read
/// from `posts.fields` (jsonb) as their schema types, text compared byte by byte (`COLLATE "C"`)
/// as SQLite compares it, and `$regex` as PostgreSQL's own regular expressions.
struct PostgresSQLDialect: RecordSQLDialect {
    func column(_ field: RecordField, of recordClass: RecordClass) -> String {
        let table = recordClass == .posts ? "posts" : "users"
        switch field {
        case .objectId: return "\(table).object_id COLLATE \"C\""
        case .createdAt: return "\(table).created_at"
        case .updatedAt: return recordClass == .posts ? "coalesce(posts.updated_at, posts.created_at)" : "users.created_at"
        case .text: return "posts.text COLLATE \"C\""
        case .user: return "(SELECT author.object_id FROM users AS author WHERE author.id = posts.user_id) COLLATE \"C\""
        case .parent: return "(SELECT thread.object_id FROM posts AS thread WHERE thread.id = posts.parent_id) COLLATE \"C\""
        case .score: return "posts.score"
        case .replyCount: return "posts.reply_count"
        case .reportCount: return "posts.report_count"
        case .removed: return "posts.removed COLLATE \"C\""
        case .username: return "users.username COLLATE \"C\""
        case .name: return "users.name COLLATE \"C\""
        case .extra(let name): return extraField(name, as: .string)
        }
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

    var readersColumn: String { "posts.readers" }

    var removedColumn: String { "posts.removed" }

    func readersNameRoleOf(_ placeholder: String) -> String {
        """
        EXISTS (SELECT 1 FROM role_users JOIN roles ON roles.id = role_users.role_id
                WHERE role_users.user_id = (SELECT id FROM users AS holder WHERE holder.object_id = \(placeholder))
                  AND strpos(posts.readers, ' role:' || roles.name || ' ') > 0)
        """
    }

    func moderates(_ placeholder: String) -> String {
        """
        EXISTS (SELECT 1 FROM role_users JOIN roles ON roles.id = role_users.role_id
                WHERE roles.name = '\(RoleName.moderators)' AND role_users.user_id = (SELECT id FROM users AS holder WHERE holder.object_id = \(placeholder)))
        """
    }

    func holdsRole(_ placeholder: String) -> String {
        "users.id IN (SELECT role_users.user_id FROM role_users JOIN roles ON roles.id = role_users.role_id WHERE roles.object_id = \(placeholder))"
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
