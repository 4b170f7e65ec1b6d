import WallDomain
import WallStorage

/// The embedded wall's SQL for `RecordConditionSQL`: the `post` and `user` tables, added fields
/// read from the JSON in `post.fields`, `$regex` through the `anywall_regexp` function each
/// connection registers (`EmbeddedRegexp`).
struct EmbeddedSQLDialect: RecordSQLDialect {
    var columns: RecordColumns {
        // BINARY: usernames are unique ignoring case, but a query compares them as Parse does.
        RecordColumns(posts: "post", users: "user", objectId: "objectId", createdAt: "createdAt", updatedAt: "updatedAt", author: "userId",
                      parent: "parentId", replyCount: "replyCount", reportCount: "reportCount", byteOrder: " COLLATE BINARY")
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

    var roleTables: RoleTables {
        RoleTables(roles: "role", roleObjectId: "objectId", roleName: "name", members: "roleUser", memberRole: "roleId", memberUser: "userId",
                   users: "user", userObjectId: "objectId")
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
