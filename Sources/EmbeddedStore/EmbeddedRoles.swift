import AnywallSupport
import Foundation
import GRDB
import WallDomain
import WallStorage

// Parse's roles on the embedded wall, as anywall-server serves `/roles`: a name, the role's own
// ACL, and its users (the `users` relation). A relation naming an account that is gone names no
// one: only accounts that exist are kept, and an account's deletion takes it out of every role.
extension EmbeddedWall {
    /// A new role holding `users` (objectIds); `nil` when the name is taken.
    public func createRole(name: String, acl: [String: PostAccess.Rights], users: [String]) throws -> StoredRole? {
        try write { db in
            let now = Self.millis(clock.now())
            try db.execute(sql: "INSERT INTO role (objectId, name, acl, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING",
                           arguments: [RandomIdentifier.objectId(), name, PostAccess.json(acl) ?? "{}", now, now])
            guard db.changesCount == 1 else { return nil }
            let roleId = db.lastInsertedRowID
            try Self.changeUsers(db, of: roleId, adding: users, removing: [])
            return try Self.role(db, where: "id = ?", [roleId])
        }
    }

    /// The roles named `name` or with `objectId` (nil: any), in the order they were made.
    public func storedRoles(name: String?, objectId: String?, skip: Int, limit: Int) throws -> [StoredRole] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT objectId, name, acl, createdAt, updatedAt FROM role
                WHERE (? IS NULL OR name = ?) AND (? IS NULL OR objectId = ?) ORDER BY id LIMIT ? OFFSET ?
                """, arguments: [name, name, objectId, objectId, limit, skip]).map(Self.role)
        }
    }

    /// Adds and removes users (objectIds) of the role `objectId`; the role after it, nil when
    /// there is no such role.
    public func changeRoleUsers(_ objectId: String, adding: [String], removing: [String]) throws -> StoredRole? {
        try write { db in
            guard let roleId = try Int64.fetchOne(db, sql: "SELECT id FROM role WHERE objectId = ?", arguments: [objectId]) else { return nil }
            try Self.changeUsers(db, of: roleId, adding: adding, removing: removing)
            try db.execute(sql: "UPDATE role SET updatedAt = ? WHERE id = ?", arguments: [Self.millis(clock.now()), roleId])
            return try Self.role(db, where: "id = ?", [roleId])
        }
    }

    /// Deletes the role `objectId`; false when there was none.
    public func deleteRole(_ objectId: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM role WHERE objectId = ?", arguments: [objectId])
            return db.changesCount == 1
        }
    }

    /// The names of the roles the account `objectId` holds.
    public func roleNames(ofUser objectId: String) throws -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT role.name FROM roleUser JOIN role ON role.id = roleUser.roleId JOIN user ON user.id = roleUser.userId
                WHERE user.objectId = ?
                """, arguments: [objectId]))
        }
    }

    private static func changeUsers(_ db: Database, of roleId: Int64, adding: [String], removing: [String]) throws {
        for user in adding {
            try db.execute(sql: "INSERT OR IGNORE INTO roleUser (roleId, userId) SELECT ?, id FROM user WHERE objectId = ?", arguments: [roleId, user])
        }
        for user in removing {
            try db.execute(sql: "DELETE FROM roleUser WHERE roleId = ? AND userId = (SELECT id FROM user WHERE objectId = ?)", arguments: [roleId, user])
        }
    }

    private static func role(_ db: Database, where condition: String, _ arguments: [any DatabaseValueConvertible]) throws -> StoredRole? {
        try Row.fetchOne(db, sql: "SELECT objectId, name, acl, createdAt, updatedAt FROM role WHERE \(condition)",
                         arguments: StatementArguments(arguments)).map(role)
    }

    private static func role(_ row: Row) -> StoredRole {
        let createdAt = date(millis: row[3])
        return StoredRole(objectId: row[0], name: row[1], acl: PostAccess.acl(json: row[2]), createdAt: createdAt,
                          updatedAt: (row[4] as Int64?).map(date(millis:)) ?? createdAt)
    }
}
