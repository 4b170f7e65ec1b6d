import WallDomain
import WallStorage

/// The embedded wall's SQL for `RecordConditionSQL`: the `post` and `user` tables, added fields
/// read from the JSON in `post.fields`, `$regex` through the `anywall_regexp` function each
/// connection registers (`EmbeddedRegexp`).
struct EmbeddedSQLDialect: RecordSQLDialect {
    func column(_ field: RecordField, of recordClass: RecordClass) -> String {
        let table = recordClass == .posts ? "post" : "user"
        switch field {
        case .objectId: return "\(table).objectId"
        case .createdAt: return "\(table).createdAt"
        // A user is never edited: its updatedAt is its createdAt, as a post's until it is edited.
        case .updatedAt: return recordClass == .posts ? "coalesce(post.updatedAt, post.createdAt)" : "user.createdAt"
        case .text: return "post.text"
        case .user: return "(SELECT objectId FROM user AS author WHERE author.id = post.userId)"
        case .parent: return "(SELECT objectId FROM post AS thread WHERE thread.id = post.parentId)"
        case .score: return "post.score"
        case .replyCount: return "post.replyCount"
        case .reportCount: return "post.reportCount"
        case .removed: return "post.removed"
        // BINARY: usernames are unique ignoring case, but a query compares them as Parse does.
        case .username: return "user.username COLLATE BINARY"
        case .name: return "user.name"
        case .extra(let name): return extraField(name, as: .string)
        }
    }

    func extraField(_ name: String, as type: FieldType) -> String {
        // Names are letters, digits and `_` (`FieldType.isFieldName`): safe inside the path.
        switch type {
        case .date: return "json_extract(post.fields, '$.\(name).iso')"
        case .pointer: return "json_extract(post.fields, '$.\(name).objectId')"
        default: return "json_extract(post.fields, '$.\(name)')"
        }
    }

    func arrayContains(_ name: String, _ placeholder: String) -> String {
        "EXISTS (SELECT 1 FROM json_each(post.fields, '$.\(name)') AS element WHERE element.value = \(placeholder))"
    }

    var readersColumn: String { "post.readers" }

    var removedColumn: String { "post.removed" }

    func readersNameRoleOf(_ placeholder: String) -> String {
        """
        EXISTS (SELECT 1 FROM roleUser JOIN role ON role.id = roleUser.roleId
                WHERE roleUser.userId = (SELECT id FROM user AS holder WHERE holder.objectId = \(placeholder))
                  AND instr(post.readers, ' role:' || role.name || ' ') > 0)
        """
    }

    func moderates(_ placeholder: String) -> String {
        """
        EXISTS (SELECT 1 FROM roleUser JOIN role ON role.id = roleUser.roleId
                WHERE role.name = '\(RoleName.moderators)' AND roleUser.userId = (SELECT id FROM user AS holder WHERE holder.objectId = \(placeholder)))
        """
    }

    func holdsRole(_ placeholder: String) -> String {
        "user.id IN (SELECT roleUser.userId FROM roleUser JOIN role ON role.id = roleUser.roleId WHERE role.objectId = \(placeholder))"
    }

    func placeholder(_ number: Int) -> String { "?" }

    func literal(_ value: Bool) -> String { value ? "1" : "0" }

    func contains(_ list: String, _ placeholder: String) -> String { "instr(\(list), \(placeholder)) > 0" }

    func matches(_ expression: String, _ pattern: TextPattern, placeholder: String) -> String {
        "anywall_regexp(\(expression), \(placeholder), '\(EmbeddedRegexp.options(pattern))')"
    }

    /// SQLite sorts NULL first in ascending order, last in descending: as Parse does.
    func sortTerm(_ expression: String, descending: Bool) -> String {
        expression + (descending ? " DESC" : " ASC")
    }

    func authorAmong(usersWhere condition: String) -> String {
        "post.userId IN (SELECT user.id FROM user WHERE \(condition))"
    }
}
