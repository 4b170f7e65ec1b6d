import AnywallSupport
import Foundation
import PostgresNIO
import WallDomain
import WallStorage

// Posts in PostgreSQL, with the embedded wall's rules: authors and timestamps, edits and
// deletions by the author only, request ids kept in the transaction of the write they made.
extension PostgresWall {
    /// PostGIS measures a geography without its spheroid on a sphere of the WGS 84 mean radius
    /// (2a + b) / 3; anywall measures on one of 6371 km. Both give the same central angle, so a
    /// distance in anywall's meters becomes PostGIS's by this ratio. Candidates are found with a
    /// hair more and then tested in Swift with anywall's own formula, the test the SQLite store
    /// makes, so both stores include and exclude the same posts.
    static let postGISMetersPerMeter = postGISEarthRadius / GreatCircle.earthRadius.meters

    /// A distance in anywall's meters as PostGIS measures it, rounded up so no post is missed.
    static func postGISMeters(_ distance: Distance) -> Double {
        distance.meters * postGISMetersPerMeter * (1 + postGISMargin) + 0.001
    }

    /// What a distance is widened by, beside a millimetre, for the rounding of two formulas.
    static let postGISMargin = 1e-9

    /// The radius in meters of the sphere PostGIS measures a geography on without its spheroid.
    static let postGISEarthRadius = (2 * 6_378_137.0 + 6_356_752.314_245_179) / 3

    /// The columns of a stored post and its author, in the order `storedPost(_:)` reads them.
    static let postColumnList = """
        posts.object_id, posts.text, ST_Y(posts.location::geometry), ST_X(posts.location::geometry), posts.created_at, posts.updated_at,
        posts.readers, posts.writers, posts.fields::text, users.object_id, users.username, users.name, users.created_at,
        (SELECT thread.object_id FROM posts AS thread WHERE thread.id = posts.parent_id), posts.score, posts.reply_count, posts.removed,
        posts.report_count, posts.restored_at
        """

    static let postColumns = "\(postColumnList) FROM posts LEFT JOIN users ON users.id = posts.user_id"

    typealias PostRow = (String, String, Double, Double, Date, Date?, String?, String?, String?, String?, String?, String?, Date?,
                                 String?, Int, Int, String?, Int, Date?)

    static func storedPost(_ row: PostRow) throws -> StoredPost {
        let (objectId, text, latitude, longitude, createdAt, updatedAt, readers, writers, fieldsJSON, authorId, username, name, authorCreatedAt,
             parent, score, replyCount, removed, reportCount, restoredAt) = row
        var author: StoredUser?
        if let authorId, let username, let authorCreatedAt {
            author = StoredUser(objectId: authorId, username: username, name: name, createdAt: authorCreatedAt)
        }
        let fields = try StoredFields.fields(fieldsJSON)
        return StoredPost(objectId: objectId, text: text, location: try GeoPoint(latitude: latitude, longitude: longitude),
                          author: author, createdAt: createdAt, updatedAt: updatedAt ?? createdAt,
                          access: PostAccess(storedReaders: readers, storedWriters: writers, author: authorId), fields: fields,
                          parent: parent, score: score, replyCount: replyCount, reportCount: reportCount,
                          removed: removed.flatMap(PostRemoval.init(rawValue:)), restoredAt: restoredAt)
    }

    /// The most posts a read decodes where it runs (see `posts`): the default page.
    static let postsDecodedInPlace = 100

    private func posts(_ query: PostgresQuery, _ what: String, for session: String?, finding: Bool = true) async throws -> [StoredPost] {
        try await posts(what, for: session, finding: finding) { client in
            try await self.collect(client.query(query, logger: self.logger).decode(PostRow.self))
        }
    }

    private func posts(_ statement: some PreparedPostRead, _ what: String, for session: String?, finding: Bool = true) async throws -> [StoredPost] {
        try await posts(what, for: session, finding: finding) { client in
            try await self.collect(client.execute(statement, logger: self.logger))
        }
    }

    private func posts(_ what: String, for session: String?, finding: Bool,
                       _ rows: @escaping @Sendable (PostgresClient) async throws -> [PostRow]) async throws -> [StoredPost] {
        let rows = try await read(what, for: session, finding: finding, rows)
        // Decoding a page of posts with large fields takes milliseconds: off the event loop. A
        // fetch or a nearby page (a few posts, at most one post's bound of fields) takes less than the hops.
        if rows.count <= Self.postsDecodedInPlace, rows.reduce(0, { $0 + ($1.8?.utf8.count ?? 0) }) <= StoredFields.maxBytes {
            return try rows.map(Self.storedPost)
        }
        return try await BlockingWork.run { try rows.map(Self.storedPost) }
    }

    // MARK: Writes

    /// Leaves a post by `writer` (a session's user is its author; the master key leaves it without
    /// one), with the access and added fields of `draft` (whose fields' types must agree with the
    /// Posts schema, which learns new ones); a `requestId` seen before throws `duplicateRequest`
    /// and writes nothing.
    public func createStoredPost(_ draft: PostDraft, by writer: PostWriter, requestId: String?) async throws -> StoredPost {
        let now = Self.millisecond(clock.now())
        let objectId = RandomIdentifier.objectId()
        let fieldsJSON = try StoredFields.text(draft.fields)
        let post = try await transaction("posting") { connection in
            let author = writer == .master ? nil : try await self.user(connection, token: writer.token ?? "")
            try await self.claim(connection, requestId: requestId, at: now)
            try await self.admit(connection, draft.fields)
            let access = draft.access ?? author.map { .publicRead(author: $0.user.objectId) } ?? .everyone
            let location = draft.location
            try await connection.query("""
                INSERT INTO posts (object_id, text, location, user_id, created_at, readers, writers, fields)
                VALUES (\(objectId), \(draft.text), ST_SetSRID(ST_MakePoint(\(location.longitude), \(location.latitude)), 4326)::geography,
                        \(author?.id), \(now), \(access.storedReaders), \(access.storedWriters(author: author?.user.objectId)), \(fieldsJSON)::jsonb)
                """, logger: self.logger)
            return StoredPost(objectId: objectId, text: draft.text, location: location, author: author?.user, createdAt: now, updatedAt: now,
                              access: access, fields: draft.fields)
        }
        if let token = writer.token { await noteWrite(by: token) }
        return post
    }

    /// Changes a post as `writer` (`notWritable` when it may not, or there is no such post).
    /// Returns when it changed and its added fields after the change.
    public func updatePost(objectId: String, changes: PostChanges, by writer: PostWriter, requestId: String?) async throws -> (updatedAt: Date, fields: [String: JSONValue]) {
        let now = Self.millisecond(clock.now())
        let updated = try await transaction("editing a post") { connection in
            let (rowId, post) = try await self.writablePost(connection, objectId: objectId, by: writer)
            try await self.claim(connection, requestId: requestId, at: now)
            var schema = try await self.postSchema(connection)
            let known = schema.types
            let fields = try changes.fields(after: post.fields, schema: &schema)
            try await self.record(connection, schema.types.filter { known[$0.key] == nil })
            let access = changes.access ?? post.access
            let fieldsJSON = try StoredFields.text(fields)
            let location = changes.location
            try await connection.query("""
                UPDATE posts SET text = coalesce(\(changes.text), text),
                    location = coalesce(ST_SetSRID(ST_MakePoint(\(location?.longitude), \(location?.latitude)), 4326)::geography, location),
                    readers = \(access.storedReaders), writers = \(access.storedWriters(author: post.author?.objectId)),
                    fields = \(fieldsJSON)::jsonb, updated_at = \(now)
                WHERE id = \(rowId)
                """, logger: self.logger)
            return (now, fields)
        }
        if let token = writer.token { await noteWrite(by: token) }
        return updated
    }

    /// Deletes a post as `writer`; `notWritable` when it may not. A reply leaves its thread's
    /// count with it; a thread's post takes its replies (ON DELETE CASCADE).
    public func deletePost(objectId: String, by writer: PostWriter) async throws {
        try await transaction("deleting a post") { connection in
            // A reply's thread post is locked before the reply, the order every change to a thread takes.
            try await self.lockThread(connection, of: objectId)
            let rowId = try await self.writablePost(connection, objectId: objectId, by: writer).rowId
            try await connection.query("UPDATE posts SET reply_count = reply_count - 1 WHERE id = (SELECT parent_id FROM posts WHERE id = \(rowId))",
                                       logger: self.logger)
            try await connection.query("DELETE FROM posts WHERE id = \(rowId)", logger: self.logger)
        }
        if let token = writer.token { await noteWrite(by: token) }
    }

    /// The types of the fields clients added to posts.
    public func postSchema() async throws -> PostSchema {
        try await read("reading the schema", for: nil) { client in try await self.postSchema(client) }
    }

    private func postSchema(_ database: some PostgresQueryRunner) async throws -> PostSchema {
        let rows = try await collect(database.run("SELECT name, type FROM schema_fields WHERE class_name = 'Posts'", logger: logger)
            .decode((String, String).self))
        return PostSchema(types: Dictionary(rows.compactMap { name, type in FieldType(rawValue: type).map { (name, $0) } }, uniquingKeysWith: { a, _ in a }))
    }

    /// Adds fields to the Posts schema, and deletes fields with their values from every post.
    public func changePostFields(adding types: [String: FieldType], deleting names: Set<String>) async throws {
        try await transaction("changing the schema") { connection in
            for (name, type) in types {
                try await connection.query("""
                    INSERT INTO schema_fields (class_name, name, type) VALUES ('Posts', \(name), \(type.rawValue)) ON CONFLICT DO NOTHING
                    """, logger: self.logger)
            }
            for name in names {
                try await connection.query("DELETE FROM schema_fields WHERE class_name = 'Posts' AND name = \(name)", logger: self.logger)
                try await connection.query("""
                    UPDATE posts SET fields = nullif(fields - \(name), '{}'::jsonb) WHERE fields ? \(name)
                    """, logger: self.logger)
            }
        }
    }

    /// Checks `fields` against the Posts schema and records the types of new ones.
    private func admit(_ connection: PostgresConnection, _ fields: [String: JSONValue]) async throws {
        guard !fields.isEmpty else { return }
        var schema = try await postSchema(connection)
        try await record(connection, try schema.admit(fields))
    }

    /// Records new fields' types. Another server may record the same field at once: the first
    /// type stays, and a different one is refused here as a later post would be.
    private func record(_ connection: PostgresConnection, _ types: [String: FieldType]) async throws {
        for (name, type) in types.sorted(by: { $0.key < $1.key }) {
            let kept = try await collect(connection.query("""
                WITH added AS (INSERT INTO schema_fields (class_name, name, type) VALUES ('Posts', \(name), \(type.rawValue))
                               ON CONFLICT DO NOTHING RETURNING type)
                SELECT type FROM added UNION ALL SELECT type FROM schema_fields WHERE class_name = 'Posts' AND name = \(name)
                """, logger: logger).decode(String.self))
            if let first = kept.first, first != type.rawValue {
                throw AnywallError.fieldTypeMismatch(field: name, expected: first, given: type.rawValue)
            }
        }
    }

    /// Forgets request ids older than `date`: a retry after that is taken as new.
    public func forgetRequestIds(before date: Date) async throws {
        _ = try await call("forgetting request ids") {
            try await self.client.query("DELETE FROM requests WHERE created_at < \(date)", logger: self.logger)
        }
    }

    private func writablePost(_ connection: PostgresConnection, objectId: String, by writer: PostWriter) async throws -> (rowId: Int64, post: StoredPost) {
        var caller: (id: Int64, user: StoredUser)?
        if let token = writer.token { caller = try await user(connection, token: token) }
        // FOR UPDATE: an edit and a deletion of the same post by two servers take turns; the read
        // after the lock, a statement of its own, sees what the one before left.
        let locked = try await collect(connection.query("SELECT id FROM posts WHERE object_id = \(objectId) FOR UPDATE", logger: logger)
            .decode(Int64.self))
        guard let rowId = locked.first, let post = try await storedPost(connection, rowId: rowId) else {
            throw AnywallError.notWritable(objectId: objectId)
        }
        // A role of the caller's named in the ACL grants what it names.
        var roles: Set<String> = []
        if let caller { roles = try await roleNames(connection, userId: caller.id) }
        guard writer.mayChange(post.access, callerId: caller?.user.objectId, roles: roles) else { throw AnywallError.notWritable(objectId: objectId) }
        return (rowId, post)
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

    /// The post with row id `rowId`, read through `database` (a transaction's connection sees its own writes).
    func storedPost(_ database: some PostgresQueryRunner, rowId: Int64) async throws -> StoredPost? {
        let rows = try await collect(database.run("SELECT \(unescaped: Self.postColumns) WHERE posts.id = \(rowId)", logger: logger)
            .decode(PostRow.self))
        return try rows.first.map(Self.storedPost)
    }

    /// The post with this object id, if there is one.
    public func storedPost(objectId: String, for session: String? = nil) async throws -> StoredPost? {
        try await posts(PostByObjectId(objectId: objectId), "reading a post", for: session, finding: false).first
    }

    /// The nearest posts (not replies: `nearby` lists posts) `reader` may read to `query`'s center
    /// within its search distance, nearest first (ties by object id), at most its limit; a removed
    /// post only for its author (`nearestReadable`). How it is found: `nearestSQL`.
    public func nearestPosts(_ query: WallQuery, for reader: PostReader, session: String? = nil) async throws -> [StoredPost] {
        guard query.limit > 0 else { return [] }
        let center = query.center, meters = Self.postGISMeters(query.searchDistance), limit = query.limit
        let found: [StoredPost]
        if reader == .user(nil) {
            found = try await posts(NearestPublicPosts<ThreadPosts>(center: center, meters: meters, limit: limit), "finding the nearest posts", for: session)
        } else {
            var statement = PostgresStatement()
            let readable = Self.nearestReadable(reader, &statement)
            let text = Self.nearestSQL(among: "posts.parent_id IS NULL AND \(readable)", longitude: statement.bind(center.longitude),
                                       latitude: statement.bind(center.latitude), meters: statement.bind(meters), limit: statement.bind(limit))
            found = try await posts(statement.query(text), "finding the nearest posts", for: session)
        }
        return Self.nearestFirst(found, query)
    }

    /// The nearest posts and replies a reader who is not signed in may read (posts everyone reads,
    /// not removed) to `query`'s center, as `nearestPosts` finds posts: what a find near a place
    /// asks when it does not leave replies out, in one statement.
    public func nearestPublicPostsAndReplies(_ query: WallQuery, session: String? = nil) async throws -> [StoredPost] {
        guard query.limit > 0 else { return [] }
        let statement = NearestPublicPosts<PostsAndReplies>(center: query.center, meters: Self.postGISMeters(query.searchDistance), limit: query.limit)
        return Self.nearestFirst(try await posts(statement, "finding the nearest posts", for: session), query)
    }

    /// `found` within `query`'s search distance by anywall's own measure, nearest first.
    private static func nearestFirst(_ found: [StoredPost], _ query: WallQuery) -> [StoredPost] {
        found.filter { query.center.distance(to: $0.location) <= query.searchDistance }
            .sorted(by: NearestFirst(around: query.center).precedes)
    }

    /// The nearest search's SQL among the posts that meet `among`, its values at the placeholders
    /// given (see `nearestPosts`).
    ///
    /// The planar index's KNN order finds the limit-th nearest posts on the plane; the farthest of
    /// them on the sphere, `reach.meters`, bounds how far the true nearest can be. The posts that
    /// near are then read through the same index, by the box in degrees that holds the circle
    /// (`dlat`, `dlon`; every longitude when the circle holds a pole; shifted by 360 degrees for the
    /// part of it across the antimeridian), and only they are sorted on the sphere. The geography
    /// index, asked for the circle itself, read ~1,500 pages of a 10^7-post wall to find 40 posts;
    /// within the whole search distance, PostgreSQL underestimates how many posts a city holds and
    /// sorts them all (docs/performance.md). The authors are joined to the nearest posts alone:
    /// joined before the limit, on a large wall the planner guesses a thousand rows and hashes
    /// every user. (`least(1, ...)`: at a circle just short of a pole, rounding may pass 1.)
    static func nearestSQL(among: String, longitude: String, latitude: String, meters: String, limit: String) -> String {
        let longitude = "\(longitude)::float8", latitude = "\(latitude)::float8", margin = 1 + postGISMargin
        let planeCenter = "ST_SetSRID(ST_MakePoint(\(longitude), \(latitude)), 4326)", center = "\(planeCenter)::geography"
        func box(shifted shift: Int) -> String {
            """
            posts.location::geometry && ST_MakeEnvelope(\(longitude) - reach.dlon + \(shift), \(latitude) - reach.dlat,
                                                        \(longitude) + reach.dlon + \(shift), \(latitude) + reach.dlat, 4326)
            """
        }
        return """
            WITH reach AS MATERIALIZED (
                SELECT meters, dlat, CASE WHEN abs(\(latitude)) + dlat >= 90 THEN 180.0
                                          ELSE degrees(asin(least(1, sin(radians(dlat)) / cos(radians(\(latitude)))))) * \(margin) + 1e-9 END AS dlon
                FROM (SELECT meters, degrees(meters / \(postGISEarthRadius)) * \(margin) + 1e-9 AS dlat
                      FROM (SELECT least(\(meters)::float8,
                                (SELECT max(ST_Distance(nearest.location, \(center), false)) FROM
                                    (SELECT posts.location FROM posts WHERE \(among)
                                     ORDER BY posts.location::geometry <-> \(planeCenter) LIMIT \(limit)) AS nearest)
                                * \(margin) + 0.001) AS meters OFFSET 0) AS bound) AS angles)
            SELECT \(postColumnList) FROM (
                SELECT posts.* FROM posts, reach
                WHERE \(among) AND (\(box(shifted: 0)) OR \(box(shifted: 360)) OR \(box(shifted: -360)))
                    AND ST_Distance(posts.location, \(center), false) <= reach.meters
                ORDER BY posts.location <-> \(center), posts.object_id
                LIMIT \(limit)) AS posts
            LEFT JOIN users ON users.id = posts.user_id
            ORDER BY posts.location <-> \(center), posts.object_id
            """
    }

    /// Whether `reader` may read a post in the nearest search, as the SQLite store's location
    /// indexes let them: a post everyone reads, or whose readers name them or a role they hold; a
    /// removed post, its author alone (a moderator reads removed posts by a find, not around them).
    static func nearestReadable(_ reader: PostReader, _ statement: inout PostgresStatement) -> String {
        guard case .user(let userId?) = reader else { return statement.condition(reader.condition, schema: [:]) }
        let entry = statement.bind(" \(userId) "), holder = statement.bind(userId)
        return """
            (CASE WHEN posts.removed IS NULL
                  THEN posts.readers IS NULL OR strpos(posts.readers, \(entry)) > 0
                       OR EXISTS (SELECT 1 FROM role_users JOIN roles ON roles.id = role_users.role_id
                                  WHERE role_users.user_id = (SELECT id FROM users AS reader WHERE reader.object_id = \(holder))
                                    AND strpos(posts.readers, ' role:' || roles.name || ' ') > 0)
                  ELSE posts.user_id = (SELECT id FROM users AS reader WHERE reader.object_id = \(holder)) END)
            """
    }

    /// Posts that meet `condition`, in `order` (then in the order they were left), skipping
    /// `skip`, at most `limit`.
    public func storedPosts(where condition: RecordCondition, order: [PostOrder], skip: Int, limit: Int, for session: String? = nil) async throws -> [StoredPost] {
        let schema = try await postSchema().types
        var statement = PostgresStatement()
        let sql = statement.condition(condition, schema: schema)
        let sort = (statement.sortTerms(order, schema: schema) + ["posts.id"]).joined(separator: ", ")
        // The text first: the statement's binds are read when `query` is called.
        let text = "SELECT \(Self.postColumns) WHERE \(sql) ORDER BY \(sort) LIMIT \(statement.bind(limit)) OFFSET \(statement.bind(skip))"
        return try await posts(statement.query(text), "reading posts", for: session)
    }

    /// How many posts meet `condition`.
    public func countPosts(where condition: RecordCondition, for session: String? = nil) async throws -> Int {
        let schema = try await postSchema().types
        var statement = PostgresStatement()
        let sql = statement.condition(condition, schema: schema)
        let query = statement.query("SELECT count(*) FROM posts WHERE \(sql)")
        return try await read("counting posts", for: session, finding: true) { client in
            try await self.collect(client.query(query, logger: self.logger).decode(Int.self)).first ?? 0
        }
    }

    /// Hands `body` each post that meets `condition` and may lie in one of `boxes` (anywhere when
    /// nil), and within `near`'s distance of its center when given, in the order they were left.
    /// Rows stream from the database: memory stays the size of a few posts however many match.
    /// The caller makes the exact test.
    ///
    /// The boxes are read through the planar index, and `near` is tested on the sphere, not
    /// through the geography index, which reads many more pages on a large wall (`nearestSQL`).
    public func forEachStoredPost(inAny boxes: [BoundingBox]?, near: (center: GeoPoint, distance: Distance)?, where condition: RecordCondition,
                                  for session: String? = nil, _ body: @escaping @Sendable (StoredPost) throws -> Void) async throws {
        let schema = try await postSchema().types
        var region = "true"
        if let boxes {
            guard !boxes.isEmpty else { return }
            region = "(" + boxes.map {
                "(posts.location::geometry) && ST_MakeEnvelope(\($0.minLongitude), \($0.minLatitude), \($0.maxLongitude), \($0.maxLatitude), 4326)"
            }.joined(separator: " OR ") + ")"
        }
        if let near {
            region += " AND ST_Distance(posts.location, \(Self.point(near.center)), false) <= \(Self.postGISMeters(near.distance))"
        }
        var statement = PostgresStatement()
        let sql = statement.condition(condition, schema: schema)
        let query = statement.query("SELECT \(Self.postColumns) WHERE (\(region)) AND \(sql) ORDER BY posts.id")
        try await read("reading posts", for: session, finding: true) { client in
            let rows = try await client.query(query, logger: self.logger).decode(PostRow.self)
            for try await row in rows { try body(try Self.storedPost(row)) }
        }
    }

    /// Accounts that meet `condition` (on `_User`'s public fields), in the order they were made,
    /// skipping `skip`, at most `limit`; and how many meet it.
    public func storedUsers(where condition: RecordCondition, skip: Int, limit: Int, for session: String? = nil) async throws -> (users: [StoredUser], count: Int) {
        var statement = PostgresStatement()
        let sql = statement.condition(condition, of: .users, schema: [:])
        let count = statement.query("SELECT count(*) FROM users WHERE \(sql)")
        let pageText = "SELECT object_id, username, name, created_at FROM users WHERE \(sql) ORDER BY id LIMIT \(statement.bind(limit)) OFFSET \(statement.bind(skip))"
        let page = statement.query(pageText)
        return try await read("reading users", for: session, finding: true) { client in
            let users = try await self.collect(client.query(page, logger: self.logger).decode((String, String, String?, Date).self)).map {
                StoredUser(objectId: $0.0, username: $0.1, name: $0.2, createdAt: $0.3)
            }
            return (users, try await self.collect(client.query(count, logger: self.logger).decode(Int.self)).first ?? 0)
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
}
