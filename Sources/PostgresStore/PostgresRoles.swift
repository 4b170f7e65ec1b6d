import AnywallSupport
import Foundation
import PostgresNIO
import WallDomain
import WallStorage

// Parse's roles in PostgreSQL, as anywall-server serves `/roles` and the SQLite store keeps them
// (`EmbeddedRoles`): a name, the role's own ACL (Parse's JSON), and its users (the `users`
// relation). A relation naming an account that is gone names no one: only accounts that exist
// are kept, and an account's deletion takes it out of every role (ON DELETE CASCADE).
extension PostgresWall {
    /// A new role holding `users` (objectIds); nil when the name is taken.
    public func createRole(name: String, acl: [String: PostAccess.Rights], users: [String]) async throws -> StoredRole? {
        let now = Self.millisecond(clock.now())
        let aclJSON = PostAccess.json(acl) ?? "{}"
        return try await transaction("making a role") { connection in
            let made = try await self.collect(connection.query("""
                INSERT INTO roles (object_id, name, acl, created_at, updated_at) VALUES (\(RandomIdentifier.objectId()), \(name), \(aclJSON), \(now), \(now))
                ON CONFLICT (name) DO NOTHING RETURNING id
                """, logger: self.logger).decode(Int64.self))
            guard let roleId = made.first else { return nil }
            try await self.changeUsers(connection, of: roleId, adding: users, removing: [])
            return try await self.role(connection, id: roleId)
        }
    }

    /// The roles named `name` or with `objectId` (nil: any), in the order they were made.
    public func roles(name: String?, objectId: String?, skip: Int, limit: Int) async throws -> [StoredRole] {
        var statement = PostgresStatement()
        var conditions = ["true"]
        if let name { conditions.append("name = \(statement.bind(name))") }
        if let objectId { conditions.append("object_id = \(statement.bind(objectId))") }
        // The text first: the statement's binds are read when `query` is called.
        let text = "\(Self.roleColumns) WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT \(statement.bind(limit)) OFFSET \(statement.bind(skip))"
        let query = statement.query(text)
        // From the primary: who holds what decides access, which a replica's lag must not widen.
        return try await call("reading roles", reading: true) {
            try await self.collect(self.client.query(query, logger: self.logger).decode(RoleRow.self)).map(Self.role)
        }
    }

    /// Adds and removes users (objectIds) of the role `objectId`; the role after it, nil when
    /// there is no such role.
    public func changeRoleUsers(_ objectId: String, adding: [String], removing: [String]) async throws -> StoredRole? {
        let now = Self.millisecond(clock.now())
        return try await transaction("changing a role's users") { connection in
            // The role's row first: two changes of one role's users take turns.
            let locked = try await self.collect(connection.query("SELECT id FROM roles WHERE object_id = \(objectId) FOR NO KEY UPDATE",
                                                                 logger: self.logger).decode(Int64.self))
            guard let roleId = locked.first else { return nil }
            try await self.changeUsers(connection, of: roleId, adding: adding, removing: removing)
            try await connection.query("UPDATE roles SET updated_at = \(now) WHERE id = \(roleId)", logger: self.logger)
            return try await self.role(connection, id: roleId)
        }
    }

    /// Deletes the role `objectId` with its users; false when there was none.
    public func deleteRole(_ objectId: String) async throws -> Bool {
        try await transaction("deleting a role") { connection in
            !(try await self.collect(connection.query("DELETE FROM roles WHERE object_id = \(objectId) RETURNING 1", logger: self.logger)
                .decode(Int.self))).isEmpty
        }
    }

    /// The names of the roles the account `objectId` holds.
    public func roleNames(ofUser objectId: String) async throws -> Set<String> {
        try await call("reading a user's roles", reading: true) {
            Set(try await self.collect(self.client.query("""
                SELECT roles.name FROM role_users JOIN roles ON roles.id = role_users.role_id JOIN users ON users.id = role_users.user_id
                WHERE users.object_id = \(objectId)
                """, logger: self.logger).decode(String.self)))
        }
    }

    /// The names of the roles the user with row id `userId` holds, read through `connection`.
    func roleNames(_ connection: PostgresConnection, userId: Int64) async throws -> Set<String> {
        Set(try await collect(connection.query("""
            SELECT roles.name FROM role_users JOIN roles ON roles.id = role_users.role_id WHERE role_users.user_id = \(userId)
            """, logger: logger).decode(String.self)))
    }

    // MARK: Helpers

    private func changeUsers(_ connection: PostgresConnection, of roleId: Int64, adding: [String], removing: [String]) async throws {
        // Added first, then removed: a `Batch` that does both to one user leaves them out, as on SQLite.
        if !adding.isEmpty {
            try await connection.query("""
                INSERT INTO role_users (role_id, user_id) SELECT \(roleId), id FROM users WHERE object_id = ANY(\(adding)) ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        if !removing.isEmpty {
            try await connection.query("""
                DELETE FROM role_users WHERE role_id = \(roleId) AND user_id IN (SELECT id FROM users WHERE object_id = ANY(\(removing)))
                """, logger: logger)
        }
    }

    private static let roleColumns = "SELECT object_id, name, acl, created_at, coalesce(updated_at, created_at) FROM roles"

    private typealias RoleRow = (String, String, String, Date, Date)

    private func role(_ connection: PostgresConnection, id: Int64) async throws -> StoredRole? {
        var statement = PostgresStatement()
        let text = "\(Self.roleColumns) WHERE id = \(statement.bind(id))"
        return try await collect(connection.query(statement.query(text), logger: logger).decode(RoleRow.self)).first.map(Self.role)
    }

    private static func role(_ row: RoleRow) -> StoredRole {
        StoredRole(objectId: row.0, name: row.1, acl: PostAccess.acl(json: row.2), createdAt: row.3, updatedAt: row.4)
    }
}
