import Foundation
import PostgresNIO
import WallDomain

// The wall's records, whole, for `anywall-server copy`.
extension PostgresWall {
    /// Whether the wall has no account, post or config.
    public func isEmptyWall() async throws -> Bool {
        try await call("counting records") {
            try await self.collect(self.client.query("""
                SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM posts) + (SELECT count(*) FROM config)
                """, logger: self.logger).decode(Int.self)).first == 0
        }
    }

    /// Removes every record: accounts (with their identities), sessions, posts (with their replies and activity), the
    /// moderators, request ids and config.
    public func removeAllRecords() async throws {
        _ = try await transaction("removing the records") { connection in
            try await connection.query("TRUNCATE sessions, auth_data, requests, activity, posts, role_users, roles, users, config, schema_fields",
                                       logger: self.logger)
        }
    }

    /// Whether the wall holds what `anywall-server copy` does not move yet: replies, votes,
    /// reports, removed posts or moderators.
    public func holdsConversation() async throws -> Bool {
        try await call("looking for replies, votes and reports") {
            try await self.collect(self.client.query("""
                SELECT EXISTS (SELECT 1 FROM posts WHERE parent_id IS NOT NULL OR removed IS NOT NULL OR restored_at IS NOT NULL)
                    OR EXISTS (SELECT 1 FROM activity) OR EXISTS (SELECT 1 FROM role_users)
                """, logger: self.logger).decode(Bool.self)).first ?? false
        }
    }

    /// Every account with its password hash and identities, in the order they were made.
    public func accountRecords() async throws -> [WallRecords.Account] {
        try await call("reading accounts") {
            var identities: [Int64: [AuthIdentity]] = [:]
            for (userId, provider, id, fields) in try await self.collect(self.client.query(
                "SELECT user_id, provider, provider_id, fields FROM auth_data ORDER BY user_id, provider", logger: self.logger)
                .decode((Int64, String, String, String).self)) {
                identities[userId, default: []].append(AuthIdentity(provider: provider, id: id, storedFields: fields))
            }
            return try await self.collect(self.client.query("SELECT id, object_id, username, name, password_hash, created_at FROM users ORDER BY id",
                                                            logger: self.logger).decode((Int64, String, String, String?, String?, Date).self))
                .map { WallRecords.Account(objectId: $1, username: $2, name: $3, passwordHash: $4, createdAt: $5, identities: identities[$0] ?? []) }
        }
    }

    /// Every open session, by the digest of its token.
    public func sessionRecords() async throws -> [WallRecords.OpenSession] {
        try await call("reading sessions") {
            try await self.collect(self.client.query("""
                SELECT sessions.token_digest, users.object_id, sessions.created_at FROM sessions JOIN users ON users.id = sessions.user_id
                """, logger: self.logger).decode((String, String, Date).self))
                .map { WallRecords.OpenSession(tokenDigest: $0, userId: $1, createdAt: $2) }
        }
    }

    /// Up to `WallRecords.batchSize` posts left after the one at `position` (0: from the first), in
    /// the order they were left, and the position of the last of them (nil when there are none).
    public func postBatch(after position: Int64) async throws -> (posts: [WallRecords.PostRecord], last: Int64?) {
        let rows = try await call("reading posts") {
            try await self.collect(self.client.query("""
                SELECT posts.id, posts.object_id, posts.text, ST_Y(posts.location::geometry), ST_X(posts.location::geometry),
                       users.object_id, posts.created_at, posts.updated_at, posts.readers, posts.writers, posts.fields::text
                FROM posts LEFT JOIN users ON users.id = posts.user_id WHERE posts.id > \(position) ORDER BY posts.id LIMIT \(WallRecords.batchSize)
                """, logger: self.logger).decode((Int64, String, String, Double, Double, String?, Date, Date?, String?, String?, String?).self))
        }
        let posts = try rows.map {
            WallRecords.PostRecord(objectId: $1, text: $2, location: try GeoPoint(latitude: $3, longitude: $4), authorId: $5,
                                   createdAt: $6, updatedAt: $7, readers: $8, writers: $9, fields: try StoredFields.fields($10))
        }
        return (posts, rows.last?.0)
    }

    /// Adds accounts, sessions and config as they are (hashes, digests and times kept). The accounts
    /// go in transactions of `WallRecords.batchSize`, each within the call's deadline: 50,000 in
    /// one took longer than it on a busy machine.
    public func insert(accounts: [WallRecords.Account], sessions: [WallRecords.OpenSession], params: [String: JSONValue]) async throws {
        let encoded = try params.map { ($0.key, String(decoding: try JSONEncoder().encode($0.value), as: UTF8.self)) }
        for start in stride(from: 0, to: accounts.count, by: WallRecords.batchSize) {
            let batch = accounts[start..<min(accounts.count, start + WallRecords.batchSize)]
            try await transaction("adding accounts") { connection in
                for account in batch {
                    let inserted = try await self.collect(connection.query("""
                        INSERT INTO users (object_id, username, name, password_hash, created_at)
                        VALUES (\(account.objectId), \(account.username), \(account.name), \(account.passwordHash), \(Self.millisecond(account.createdAt)))
                        RETURNING id
                        """, logger: self.logger).decode(Int64.self))
                    if let id = inserted.first { try await self.link(connection, account.identities, to: id) }
                }
            }
        }
        try await transaction("adding sessions and config") { connection in
            for session in sessions {
                try await connection.query("""
                    INSERT INTO sessions (token_digest, user_id, created_at) SELECT \(session.tokenDigest), id, \(Self.millisecond(session.createdAt))
                    FROM users WHERE object_id = \(session.userId)
                    """, logger: self.logger)
            }
            for (key, value) in encoded {
                try await connection.query("INSERT INTO config (key, value) VALUES (\(key), \(value))", logger: self.logger)
            }
        }
    }

    /// Adds posts as they are, each with its author (by object id) when the author is on the wall:
    /// a batch in one statement (arrays unnested in their order, so the posts keep it). The batch
    /// leaves no change rows (migration v9); it moves the log's horizon past every seq so far, so a
    /// LiveQuery subscriber resuming from before it reads the wall again, as after a gap.
    public func insert(posts: [WallRecords.PostRecord]) async throws {
        let objectIds = posts.map(\.objectId), texts = posts.map(\.text)
        let latitudes = posts.map(\.location.latitude), longitudes = posts.map(\.location.longitude)
        // Arrays cannot hold NULL here: no author is an id no user has, no edit a flag.
        let authorIds = posts.map { $0.authorId ?? "" }, createdAt = posts.map { Self.millisecond($0.createdAt) }
        let updatedAt = posts.map { Self.millisecond($0.updatedAt ?? $0.createdAt) }, edited = posts.map { $0.updatedAt != nil }
        // NULL (everyone reads; the author alone writes; no added field) travels as "-", which no list or object is.
        let readers = posts.map { $0.readers ?? "-" }, writers = posts.map { $0.writers ?? "-" }
        let fields = try posts.map { try StoredFields.text($0.fields) ?? "-" }
        _ = try await transaction("adding posts") { connection in
            try await connection.query("SELECT set_config(\(PostgresSchema.copyingSetting), 'on', true)", logger: self.logger)
            try await connection.query("""
                INSERT INTO posts (object_id, text, location, user_id, created_at, updated_at, readers, writers, fields)
                SELECT p.object_id, p.text, ST_SetSRID(ST_MakePoint(p.longitude, p.latitude), 4326)::geography, users.id,
                       p.created_at, CASE WHEN p.edited THEN p.updated_at END,
                       nullif(p.readers, '-'), nullif(p.writers, '-'), nullif(p.fields, '-')::jsonb
                FROM unnest(\(objectIds)::text[], \(texts)::text[], \(latitudes)::float8[], \(longitudes)::float8[],
                            \(authorIds)::text[], \(createdAt)::timestamptz[], \(updatedAt)::timestamptz[], \(edited)::bool[],
                            \(readers)::text[], \(writers)::text[], \(fields)::text[])
                     WITH ORDINALITY AS p(object_id, text, latitude, longitude, author_id, created_at, updated_at, edited,
                                          readers, writers, fields, position)
                LEFT JOIN users ON users.object_id = p.author_id
                ORDER BY p.position
                """, logger: self.logger)
            try await connection.query("""
                UPDATE change_horizon SET pruned_through = greatest(pruned_through, nextval(pg_get_serial_sequence('post_changes', 'seq')))
                """, logger: self.logger)
        }
    }

    /// Readies the wall to serve the posts a copy added. The planar location index, built post by
    /// post, is built again at once: PostgreSQL then sorts the points along a curve and packs
    /// them, and at the cities of a 10^7-post wall a nearest search takes a fifth of the time
    /// (docs/performance.md). The planner's statistics are taken, so it knows the wall's size.
    /// The build takes ~20 s for 10^7 posts: its deadline is an hour, not a call's.
    public func finishCopy() async throws {
        _ = try await call("indexing the copied posts", deadline: .seconds(3_600)) {
            try await self.client.query("REINDEX INDEX posts_location_plane", logger: self.logger)
            try await self.client.query("ANALYZE posts, users", logger: self.logger)
        }
    }
}
