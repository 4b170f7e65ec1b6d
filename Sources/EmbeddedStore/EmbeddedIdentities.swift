import AnywallSupport
import Foundation
import GRDB
import WallDomain

// Accounts that log in with an identity (Parse's `authData`: anonymous, Facebook) instead of, or
// besides, a password. Checking an identity with its provider is the server's; the wall keeps
// which account has which, one account per provider and id.
extension EmbeddedWall {
    /// The accounts (at most two: one is enough to log in, two is a conflict) that have any of `identities`.
    public func accounts(with identities: [AuthIdentity]) throws -> [StoredUser] {
        try read { db in
            var found: [StoredUser] = []
            for identity in identities {
                let row = try Row.fetchOne(db, sql: """
                    SELECT user.objectId, user.username, user.name, user.createdAt FROM authData JOIN user ON user.id = authData.userId
                    WHERE authData.provider = ? AND authData.providerId = ?
                    """, arguments: [identity.provider, identity.id])
                if let row, !found.contains(where: { $0.objectId == row[0] as String }) {
                    found.append(StoredUser(objectId: row[0], username: row[1], name: row[2], createdAt: Self.date(millis: row[3])))
                }
            }
            return Array(found.prefix(2))
        }
    }

    /// The identities the account `objectId` logs in with, by provider.
    public func identities(ofUser objectId: String) throws -> [AuthIdentity] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT provider, providerId, fields FROM authData WHERE userId = (SELECT id FROM user WHERE objectId = ?) ORDER BY provider
                """, arguments: [objectId]).map { AuthIdentity(provider: $0[0], id: $0[1], storedFields: $0[2]) }
        }
    }

    /// A new account that logs in with `identities` (and `password`, when given), and a session
    /// for it; `username` or, without one, a random one. `usernameTaken` or `identityTaken` when
    /// another account has either (an identity can be taken between the server's look-up and this).
    public func signUp(identities: [AuthIdentity], username: String?, password: String?, name: String?) throws -> Session {
        let username = try username.map(Username.validated) ?? RandomIdentifier.username()
        let name = try DisplayName.validated(name)
        let hash = try password.map { try hasher.hash(try Password.validated($0)) }
        let now = clock.now()
        let user = User(objectId: RandomIdentifier.objectId(), username: username, name: name)
        return try write { db in
            if try Row.fetchOne(db, sql: "SELECT 1 FROM user WHERE username = ?", arguments: [username]) != nil {
                throw AnywallError.usernameTaken(username)
            }
            try db.execute(sql: "INSERT INTO user (objectId, username, name, passwordHash, createdAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [user.objectId, user.username, user.name, hash, Self.millis(now)])
            let id = db.lastInsertedRowID
            try Self.link(db, identities, to: id)
            return try self.openSession(db, userId: id, user: user, now: now)
        }
    }

    /// A new session for the account `objectId`, which logged in with `identities`: their kept
    /// fields (a new expiration date) replace those stored. `notWritable` when there is no such account.
    public func logIn(objectId: String, identities: [AuthIdentity]) throws -> Session {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, username, name FROM user WHERE objectId = ?", arguments: [objectId]) else {
                throw AnywallError.notWritable(objectId: objectId)
            }
            let id: Int64 = row[0]
            try Self.link(db, identities, to: id)
            return try self.openSession(db, userId: id, user: User(objectId: objectId, username: row[1], name: row[2]), now: self.clock.now())
        }
    }

    /// Links `linking` to the account `objectId` (each replacing the account's identity of the
    /// same provider) and unlinks the providers `unlinking`, in one transaction. `identityTaken`
    /// when another account has one of `linking`; `lastWayToLogIn` when the account would be
    /// left with no password and no identity; `notWritable` when there is no such account.
    public func changeIdentities(ofUser objectId: String, linking: [AuthIdentity], unlinking: Set<String>) throws {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, passwordHash IS NOT NULL FROM user WHERE objectId = ?", arguments: [objectId]) else {
                throw AnywallError.notWritable(objectId: objectId)
            }
            let id: Int64 = row[0], hasPassword: Bool = row[1]
            for provider in unlinking.sorted() {
                try db.execute(sql: "DELETE FROM authData WHERE userId = ? AND provider = ?", arguments: [id, provider])
            }
            try Self.link(db, linking, to: id)
            let left = try Int.fetchOne(db, sql: "SELECT count(*) FROM authData WHERE userId = ?", arguments: [id]) ?? 0
            if !hasPassword, left == 0, let provider = unlinking.sorted().first {
                throw AnywallError.lastWayToLogIn(provider: provider)
            }
        }
    }

    /// Writes `identities` as the account `userId`'s, replacing its own of the same providers;
    /// `identityTaken` when another account has one (the unique index on provider and id).
    static func link(_ db: Database, _ identities: [AuthIdentity], to userId: Int64) throws {
        for identity in identities {
            let fields = identity.storedFields
            do {
                try db.execute(sql: """
                    INSERT INTO authData (userId, provider, providerId, fields) VALUES (?, ?, ?, ?)
                    ON CONFLICT (userId, provider) DO UPDATE SET providerId = excluded.providerId, fields = excluded.fields
                    """, arguments: [userId, identity.provider, identity.id, fields])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw AnywallError.identityTaken(provider: identity.provider)
            }
        }
    }
}
