import Foundation
import GRDB
import WallDomain

// The embedded wall's records, whole, for `anywall-server copy`.
extension EmbeddedWall {
    /// Whether the wall has no account, post or config.
    public func isEmptyWall() throws -> Bool {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM user) + (SELECT count(*) FROM post) + (SELECT count(*) FROM config)") == 0
        }
    }

    /// Removes every record: accounts (with their identities), sessions, posts (with their replies and activity), the
    /// moderators, request ids and config.
    public func removeAllRecords() throws {
        try write { db in
            try db.execute(sql: """
                DELETE FROM session; DELETE FROM authData; DELETE FROM request; DELETE FROM post; DELETE FROM roleUser; DELETE FROM role; DELETE FROM user;
                DELETE FROM config; DELETE FROM schemaField
                """)
        }
    }

    /// Whether the wall holds what `anywall-server copy` does not move yet: replies, votes,
    /// reports, removed posts or moderators.
    public func holdsConversation() throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM post WHERE parentId IS NOT NULL OR removed IS NOT NULL OR restoredAt IS NOT NULL)
                    OR EXISTS (SELECT 1 FROM activity) OR EXISTS (SELECT 1 FROM roleUser)
                """) ?? false
        }
    }

    /// Every account with its password hash and identities, in the order they were made.
    public func accountRecords() throws -> [WallRecords.Account] {
        try read { db in
            var identities: [Int64: [AuthIdentity]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT userId, provider, providerId, fields FROM authData ORDER BY userId, provider") {
                identities[row[0], default: []].append(AuthIdentity(provider: row[1], id: row[2], storedFields: row[3]))
            }
            return try Row.fetchAll(db, sql: "SELECT id, objectId, username, name, passwordHash, createdAt FROM user ORDER BY id").map {
                WallRecords.Account(objectId: $0["objectId"], username: $0["username"], name: $0["name"], passwordHash: $0["passwordHash"],
                                    createdAt: Self.date(millis: $0["createdAt"]), identities: identities[$0["id"]] ?? [])
            }
        }
    }

    /// Every open session, by the digest of its token.
    public func sessionRecords() throws -> [WallRecords.OpenSession] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT session.tokenDigest, user.objectId, session.createdAt FROM session JOIN user ON user.id = session.userId")
                .map { WallRecords.OpenSession(tokenDigest: $0[0], userId: $0[1], createdAt: Self.date(millis: $0[2])) }
        }
    }

    /// Up to `WallRecords.batchSize` posts left after the one at `position` (0: from the first), in
    /// the order they were left, and the position of the last of them (nil when there are none).
    public func postBatch(after position: Int64) throws -> (posts: [WallRecords.PostRecord], last: Int64?) {
        let rows: [(Int64, WallRecords.PostRecord)] = try read { db in
            try Row.fetchAll(db, sql: """
                SELECT post.id, post.objectId, post.text, post.latitude, post.longitude, user.objectId, post.createdAt, post.updatedAt,
                       post.readers, post.writers, post.fields
                FROM post LEFT JOIN user ON user.id = post.userId WHERE post.id > ? ORDER BY post.id LIMIT ?
                """, arguments: [position, WallRecords.batchSize]).map { row in
                (row[0], WallRecords.PostRecord(objectId: row[1], text: row[2], location: try GeoPoint(latitude: row[3], longitude: row[4]),
                                                authorId: row[5], createdAt: Self.date(millis: row[6]),
                                                updatedAt: (row[7] as Int64?).map(Self.date(millis:)), readers: row[8], writers: row[9],
                                                fields: try StoredFields.fields(row[10])))
            }
        }
        return (rows.map(\.1), rows.last?.0)
    }

    /// Adds accounts, sessions and config as they are (hashes, digests and times kept).
    public func insert(accounts: [WallRecords.Account], sessions: [WallRecords.OpenSession], params: [String: JSONValue]) throws {
        let encoded = try params.map { ($0.key, String(decoding: try JSONEncoder().encode($0.value), as: UTF8.self)) }
        try write { db in
            for account in accounts {
                try db.execute(sql: "INSERT INTO user (objectId, username, name, passwordHash, createdAt) VALUES (?, ?, ?, ?, ?)",
                               arguments: [account.objectId, account.username, account.name, account.passwordHash, Self.millis(account.createdAt)])
                try Self.link(db, account.identities, to: db.lastInsertedRowID)
            }
            for session in sessions {
                try db.execute(sql: "INSERT INTO session (tokenDigest, userId, createdAt) SELECT ?, id, ? FROM user WHERE objectId = ?",
                               arguments: [session.tokenDigest, Self.millis(session.createdAt), session.userId])
            }
            for (key, value) in encoded {
                try db.execute(sql: "INSERT INTO config (key, value) VALUES (?, ?)", arguments: [key, value])
            }
        }
    }

    /// Adds posts as they are, each with its author (by object id) when the author is on the wall.
    /// Copied posts are not changes anyone saw happen: as a load in bulk, the batch is one gap in
    /// the change log (a subscriber resuming from before it reads the wall again), not a row a
    /// post, which the servers would then prune for minutes.
    public func insert(posts: [WallRecords.PostRecord]) throws {
        try write { db in
            try self.addingAsOneChangeGap(db) {
                for post in posts {
                    try db.execute(sql: """
                        INSERT INTO post (objectId, text, latitude, longitude, userId, createdAt, updatedAt, readers, writers, fields)
                        VALUES (?, ?, ?, ?, (SELECT id FROM user WHERE objectId = ?), ?, ?, ?, ?, ?)
                        """, arguments: [post.objectId, post.text, post.location.latitude, post.location.longitude, post.authorId,
                                         Self.millis(post.createdAt), post.updatedAt.map(Self.millis), post.readers, post.writers,
                                         try StoredFields.text(post.fields)])
                }
            }
        }
    }
}
