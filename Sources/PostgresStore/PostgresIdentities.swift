import AnywallSupport
import Foundation
import PostgresNIO
import WallDomain

// Accounts that log in with an identity (Parse's `authData`: anonymous, Facebook) instead of, or
// besides, a password, as the SQLite store keeps them (`EmbeddedIdentities`): one account per
// provider and id, held by a unique index.
extension PostgresWall {
    /// The accounts (at most two: one is enough to log in, two is a conflict) that have any of `identities`.
    public func accounts(with identities: [AuthIdentity]) async throws -> [StoredUser] {
        try await call("finding an account by its identity") {
            var found: [StoredUser] = []
            for identity in identities {
                let rows = try await self.collect(self.client.query("""
                    SELECT users.object_id, users.username, users.name, users.created_at FROM auth_data JOIN users ON users.id = auth_data.user_id
                    WHERE auth_data.provider = \(identity.provider) AND auth_data.provider_id = \(identity.id)
                    """, logger: self.logger).decode((String, String, String?, Date).self))
                for (objectId, username, name, createdAt) in rows where !found.contains(where: { $0.objectId == objectId }) {
                    found.append(StoredUser(objectId: objectId, username: username, name: name, createdAt: createdAt))
                }
            }
            return Array(found.prefix(2))
        }
    }

    /// The identities the account `objectId` logs in with, by provider.
    public func identities(ofUser objectId: String) async throws -> [AuthIdentity] {
        try await call("reading an account's identities") {
            try await self.collect(self.client.query("""
                SELECT provider, provider_id, fields FROM auth_data WHERE user_id = (SELECT id FROM users WHERE object_id = \(objectId)) ORDER BY provider
                """, logger: self.logger).decode((String, String, String).self))
                .map { AuthIdentity(provider: $0.0, id: $0.1, storedFields: $0.2) }
        }
    }

    /// A new account that logs in with `identities` (and `password`, when given), and a session
    /// for it; `username` or, without one, a random one. `usernameTaken` or `identityTaken` when
    /// another account has either (an identity can be taken between the server's look-up and this).
    public func signUp(identities: [AuthIdentity], username: String?, password: String?, name: String?) async throws -> (session: Session, user: StoredUser) {
        let username = try username.map(Username.validated) ?? RandomIdentifier.username()
        let name = try DisplayName.validated(name)
        let password = try password.map(Password.validated)
        let hasher = self.hasher
        var newHash: String?
        if let password { newHash = try await BlockingWork.run { try hasher.hash(password) } }
        let hash = newHash
        let now = Self.millisecond(clock.now())
        let objectId = RandomIdentifier.objectId()
        return try await transaction("signing up") { connection in
            let inserted = try await connection.query("""
                INSERT INTO users (object_id, username, name, password_hash, created_at) VALUES (\(objectId), \(username), \(name), \(hash), \(now))
                ON CONFLICT DO NOTHING RETURNING id
                """, logger: self.logger).decode(Int64.self)
            var id: Int64?
            for try await row in inserted { id = row }
            guard let id else { throw AnywallError.usernameTaken(username) }
            try await self.link(connection, identities, to: id)
            let user = StoredUser(objectId: objectId, username: username, name: name, createdAt: now)
            return (try await self.openSession(connection, userId: id, user: user, now: now), user)
        }
    }

    /// A new session for the account `objectId`, which logged in with `identities`: their kept
    /// fields (a new expiration date) replace those stored. `notWritable` when there is no such account.
    public func logIn(objectId: String, identities: [AuthIdentity]) async throws -> (session: Session, user: StoredUser) {
        let now = Self.millisecond(clock.now())
        return try await transaction("logging in") { connection in
            let rows = try await self.collect(connection.query("""
                SELECT id, username, name, created_at FROM users WHERE object_id = \(objectId) FOR UPDATE
                """, logger: self.logger).decode((Int64, String, String?, Date).self))
            guard let (id, username, name, createdAt) = rows.first else { throw AnywallError.notWritable(objectId: objectId) }
            try await self.link(connection, identities, to: id)
            let user = StoredUser(objectId: objectId, username: username, name: name, createdAt: createdAt)
            return (try await self.openSession(connection, userId: id, user: user, now: now), user)
        }
    }

    /// Links `linking` to the account `objectId` (each replacing the account's identity of the
    /// same provider) and unlinks the providers `unlinking`, in one transaction. `identityTaken`
    /// when another account has one of `linking`; `lastWayToLogIn` when the account would be
    /// left with no password and no identity; `notWritable` when there is no such account.
    public func changeIdentities(ofUser objectId: String, linking: [AuthIdentity], unlinking: Set<String>) async throws {
        try await transaction("linking an identity") { connection in
            let rows = try await self.collect(connection.query("""
                SELECT id, password_hash IS NOT NULL FROM users WHERE object_id = \(objectId) FOR UPDATE
                """, logger: self.logger).decode((Int64, Bool).self))
            guard let (id, hasPassword) = rows.first else { throw AnywallError.notWritable(objectId: objectId) }
            let providers = unlinking.sorted()
            try await connection.query("DELETE FROM auth_data WHERE user_id = \(id) AND provider = ANY(\(providers))", logger: self.logger)
            try await self.link(connection, linking, to: id)
            let left = try await self.collect(connection.query("SELECT count(*)::bigint FROM auth_data WHERE user_id = \(id)", logger: self.logger)
                .decode(Int64.self))
            if !hasPassword, left.first == 0, let provider = providers.first {
                throw AnywallError.lastWayToLogIn(provider: provider)
            }
        }
    }

    /// Writes `identities` as the account `userId`'s, replacing its own of the same providers;
    /// `identityTaken` when another account has one (the unique index on provider and id).
    func link(_ connection: PostgresConnection, _ identities: [AuthIdentity], to userId: Int64) async throws {
        for identity in identities {
            let fields = identity.storedFields
            do {
                try await connection.query("""
                    INSERT INTO auth_data (user_id, provider, provider_id, fields) VALUES (\(userId), \(identity.provider), \(identity.id), \(fields))
                    ON CONFLICT (user_id, provider) DO UPDATE SET provider_id = excluded.provider_id, fields = excluded.fields
                    """, logger: logger)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                throw AnywallError.identityTaken(provider: identity.provider)
            }
        }
    }
}
