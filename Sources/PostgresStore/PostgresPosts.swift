import AnywallSupport
import Foundation
import PostgresNIO
import WallDomain

// Posts in PostgreSQL, with the embedded wall's rules: authors and timestamps, edits and
// deletions by the author only, request ids kept in the transaction of the write they made.
extension PostgresWall {
    /// PostGIS measures a geography without its spheroid on a sphere of the WGS 84 mean radius
    /// (2a + b) / 3; anywall measures on one of 6371 km. Both give the same central angle, so a
    /// distance in anywall's meters becomes PostGIS's by this ratio. Candidates are found with a
    /// hair more and then tested in Swift with anywall's own formula, the test the SQLite store
    /// makes, so both stores include and exclude the same posts.
    static let postGISMetersPerMeter = ((2 * 6_378_137.0 + 6_356_752.314_245_179) / 3) / GreatCircle.earthRadius.meters

    /// A distance in anywall's meters as PostGIS measures it, rounded up so no post is missed.
    static func postGISMeters(_ distance: Distance) -> Double {
        distance.meters * postGISMetersPerMeter * (1 + postGISMargin) + 0.001
    }

    /// What a distance is widened by, beside a millimetre, for the rounding of two formulas.
    static let postGISMargin = 1e-9

    private static let postColumns = """
        posts.object_id, posts.text, ST_Y(posts.location::geometry), ST_X(posts.location::geometry), posts.created_at, posts.updated_at,
        users.object_id, users.username, users.name, users.created_at
        FROM posts LEFT JOIN users ON users.id = posts.user_id
        """

    private typealias PostRow = (String, String, Double, Double, Date, Date?, String?, String?, String?, Date?)

    private static func storedPost(_ row: PostRow) throws -> StoredPost {
        let (objectId, text, latitude, longitude, createdAt, updatedAt, authorId, username, name, authorCreatedAt) = row
        var author: StoredUser?
        if let authorId, let username, let authorCreatedAt {
            author = StoredUser(objectId: authorId, username: username, name: name, createdAt: authorCreatedAt)
        }
        return StoredPost(objectId: objectId, text: text, location: try GeoPoint(latitude: latitude, longitude: longitude),
                          author: author, createdAt: createdAt, updatedAt: updatedAt ?? createdAt)
    }

    private func posts(_ query: PostgresQuery, _ what: String, for reader: String?) async throws -> [StoredPost] {
        try await read(what, for: reader) { client in
            try await self.collect(client.query(query, logger: self.logger).decode(PostRow.self)).map(Self.storedPost)
        }
    }

    // MARK: Writes

    /// Leaves a post as the token's user; a `requestId` seen before throws `duplicateRequest`
    /// and writes nothing.
    public func createStoredPost(text: String, at location: GeoPoint, token: String, requestId: String?) async throws -> StoredPost {
        let now = Self.millisecond(clock.now())
        let objectId = RandomIdentifier.objectId()
        let post = try await transaction("posting") { connection in
            let author = try await self.user(connection, token: token)
            try await self.claim(connection, requestId: requestId, at: now)
            try await connection.query("""
                INSERT INTO posts (object_id, text, location, user_id, created_at)
                VALUES (\(objectId), \(text), ST_SetSRID(ST_MakePoint(\(location.longitude), \(location.latitude)), 4326)::geography,
                        \(author.id), \(now))
                """, logger: self.logger)
            return StoredPost(objectId: objectId, text: text, location: location, author: author.user, createdAt: now, updatedAt: now)
        }
        await noteWrite(by: token)
        return post
    }

    /// Changes a post's text and/or place as the token's user, who must be its author
    /// (`notWritable` otherwise, or when there is no such post). Returns when it changed.
    public func updatePost(objectId: String, text: String?, location: GeoPoint?, token: String, requestId: String?) async throws -> Date {
        let now = Self.millisecond(clock.now())
        let updatedAt = try await transaction("editing a post") { connection in
            let rowId = try await self.ownPost(connection, objectId: objectId, token: token)
            try await self.claim(connection, requestId: requestId, at: now)
            try await connection.query("""
                UPDATE posts SET text = coalesce(\(text), text),
                    location = coalesce(ST_SetSRID(ST_MakePoint(\(location?.longitude), \(location?.latitude)), 4326)::geography, location),
                    updated_at = \(now)
                WHERE id = \(rowId)
                """, logger: self.logger)
            return now
        }
        await noteWrite(by: token)
        return updatedAt
    }

    /// Deletes a post as the token's user, who must be its author; `notWritable` otherwise.
    public func deletePost(objectId: String, token: String) async throws {
        try await transaction("deleting a post") { connection in
            let rowId = try await self.ownPost(connection, objectId: objectId, token: token)
            try await connection.query("DELETE FROM posts WHERE id = \(rowId)", logger: self.logger)
        }
        await noteWrite(by: token)
    }

    /// Forgets request ids older than `date`: a retry after that is taken as new.
    public func forgetRequestIds(before date: Date) async throws {
        _ = try await call("forgetting request ids") {
            try await self.client.query("DELETE FROM requests WHERE created_at < \(date)", logger: self.logger)
        }
    }

    private func ownPost(_ connection: PostgresConnection, objectId: String, token: String) async throws -> Int64 {
        let caller = try await user(connection, token: token).user
        // FOR UPDATE: an edit and a deletion of the same post by two servers take turns.
        let rows = try await collect(connection.query("""
            SELECT posts.id, users.object_id FROM posts LEFT JOIN users ON users.id = posts.user_id
            WHERE posts.object_id = \(objectId) FOR UPDATE OF posts
            """, logger: logger).decode((Int64, String?).self))
        guard let (rowId, authorId) = rows.first, PostAccess.mayChange(authorId: authorId, userId: caller.objectId) else {
            throw AnywallError.notWritable(objectId: objectId)
        }
        return rowId
    }

    /// Records a request id, or throws `duplicateRequest` when it was recorded before (by any
    /// server: a retry sent to another one waits for the first's transaction, then is refused).
    private func claim(_ connection: PostgresConnection, requestId: String?, at now: Date) async throws {
        guard let requestId else { return }
        let claimed = try await collect(connection.query("""
            INSERT INTO requests (id, created_at) VALUES (\(requestId), \(now)) ON CONFLICT DO NOTHING RETURNING 1
            """, logger: logger).decode(Int.self))
        if claimed.isEmpty { throw AnywallError.duplicateRequest(requestId: requestId) }
    }

    // MARK: Reads

    /// The post with this object id, if there is one.
    public func storedPost(objectId: String, for reader: String? = nil) async throws -> StoredPost? {
        try await posts("SELECT \(unescaped: Self.postColumns) WHERE posts.object_id = \(objectId)", "reading a post", for: reader).first
    }

    /// The nearest posts to `query`'s center within its search distance, nearest first (ties by
    /// object id), at most its limit. The planar index's KNN order (`<->` on `location::geometry`)
    /// finds the limit-th nearest posts on the plane; the farthest of them on the sphere bounds
    /// how far the true nearest can be, and only posts that near (ties included) are then sorted.
    /// Within the whole search distance instead, PostgreSQL underestimates how many posts a city
    /// holds and sorts them all (130 ms over a million posts); KNN on geography bounds it too,
    /// but is ten times the cost of the plane's (scripts/bench-postgres).
    public func nearestPosts(_ query: WallQuery, for reader: String? = nil) async throws -> [StoredPost] {
        guard query.limit > 0 else { return [] }
        let center = Self.point(query.center), planeCenter = Self.planePoint(query.center)
        let found = try await posts("""
            SELECT \(unescaped: Self.postColumns)
            WHERE ST_DWithin(posts.location, \(unescaped: center), least(\(Self.postGISMeters(query.searchDistance)),
                (SELECT max(ST_Distance(nearest.location, \(unescaped: center), false)) FROM
                    (SELECT posts.location FROM posts ORDER BY posts.location::geometry <-> \(unescaped: planeCenter) LIMIT \(query.limit)) AS nearest)
                * \(1 + Self.postGISMargin) + 0.001), false)
            ORDER BY posts.location <-> \(unescaped: center), posts.object_id
            LIMIT \(query.limit)
            """, "finding the nearest posts", for: reader)
        return found.filter { query.center.distance(to: $0.location) <= query.searchDistance }
            .sorted { (query.center.distance(to: $0.location), $0.objectId) < (query.center.distance(to: $1.location), $1.objectId) }
    }

    /// Posts in `order` (then in the order they were left), skipping `skip`, at most `limit`;
    /// only those with the given object ids when `objectIds` is set.
    public func storedPosts(objectIds: [String]?, order: [PostOrder], skip: Int, limit: Int, for reader: String? = nil) async throws -> [StoredPost] {
        let sort = (order.map(Self.sortTerm) + ["posts.id"]).joined(separator: ", ")
        return try await posts("""
            SELECT \(unescaped: Self.postColumns) WHERE \(objectIds == nil) OR posts.object_id = ANY(\(objectIds ?? []))
            ORDER BY \(unescaped: sort) LIMIT \(limit) OFFSET \(skip)
            """, "reading posts", for: reader)
    }

    /// How many posts there are (with the given object ids, when `objectIds` is set).
    public func countPosts(objectIds: [String]?, for reader: String? = nil) async throws -> Int {
        try await read("counting posts", for: reader) { client in
            try await self.collect(client.query("""
                SELECT count(*) FROM posts WHERE \(objectIds == nil) OR posts.object_id = ANY(\(objectIds ?? []))
                """, logger: self.logger).decode(Int.self)).first ?? 0
        }
    }

    /// Hands `body` each post that may lie in one of `boxes`, or within `near`'s distance of its
    /// center, or anywhere when both are nil (with the given object ids, when `objectIds` is set),
    /// in the order they were left. Rows stream from the database: memory stays the size of a
    /// few posts however many match. The caller makes the exact test.
    public func forEachStoredPost(inAny boxes: [BoundingBox]?, near: (center: GeoPoint, distance: Distance)?, objectIds: [String]?,
                                  for reader: String? = nil, _ body: @escaping @Sendable (StoredPost) throws -> Void) async throws {
        var region = "true"
        if let boxes {
            guard !boxes.isEmpty else { return }
            region = boxes.map {
                "(posts.location::geometry) && ST_MakeEnvelope(\($0.minLongitude), \($0.minLatitude), \($0.maxLongitude), \($0.maxLatitude), 4326)"
            }.joined(separator: " OR ")
        } else if let near {
            region = "ST_DWithin(posts.location, \(Self.point(near.center)), \(Self.postGISMeters(near.distance)), false)"
        }
        let candidates = region
        try await read("reading posts", for: reader) { client in
            let rows = try await client.query("""
                SELECT \(unescaped: Self.postColumns)
                WHERE (\(unescaped: candidates)) AND (\(objectIds == nil) OR posts.object_id = ANY(\(objectIds ?? [])))
                ORDER BY posts.id
                """, logger: self.logger).decode(PostRow.self)
            for try await row in rows { try body(try Self.storedPost(row)) }
        }
    }

    /// A point as a geography literal: coordinates are numbers the wall already checked.
    private static func point(_ point: GeoPoint) -> String {
        "\(planePoint(point))::geography"
    }

    /// A point as a planar geometry in degrees, as the `location::geometry` index keeps posts.
    private static func planePoint(_ point: GeoPoint) -> String {
        "ST_SetSRID(ST_MakePoint(\(point.longitude), \(point.latitude)), 4326)"
    }

    /// The SQL sort term for one key; text in byte order, as SQLite compares it.
    private static func sortTerm(_ key: PostOrder) -> String {
        let column: String
        switch key.field {
        case .createdAt: column = "posts.created_at"
        case .updatedAt: column = "coalesce(posts.updated_at, posts.created_at)"
        case .objectId: column = "posts.object_id COLLATE \"C\""
        case .text: column = "posts.text COLLATE \"C\""
        }
        return column + (key.descending ? " DESC" : " ASC")
    }
}
