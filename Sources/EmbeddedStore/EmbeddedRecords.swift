import AnywallSupport
import Foundation
import GRDB
import GRDBSQLite
import WallDomain
import WallStorage

// The embedded wall record by record, as anywall-server serves it: posts with their authors and
// timestamps, edits and deletions by the author only, and request ids kept with the writes they made.
extension EmbeddedWall {
    /// Stored posts with their authors, as `storedPost(_:)` reads them.
    static let storedPostQuery = """
        SELECT \(storedPostColumns)
        FROM post LEFT JOIN user ON user.id = post.userId
        """

    /// The columns of a stored post and its author, in the order `storedPost(_:)` reads them.
    static let storedPostColumns = """
        post.id AS rowId, post.objectId, post.text, post.latitude, post.longitude, post.createdAt, post.updatedAt,
        post.readers, post.writers, post.fields,
        user.objectId AS userObjectId, user.username, user.name, user.createdAt AS userCreatedAt,
        (SELECT thread.objectId FROM post AS thread WHERE thread.id = post.parentId), post.score, post.replyCount, post.removed,
        post.reportCount, post.restoredAt
        """

    // MARK: Users

    /// The account a session token belongs to; `sessionExpired` when the token is unknown or ended.
    public func storedUser(token: String) throws -> StoredUser {
        // One cached statement outside GRDB's `read`, whose `query_only` pragma makes SQLite
        // compile it anew: the server asks this of every request that carries a session.
        try mapped {
            try database.inDatabase { db in
                let row = try self.sessionUserRow(db, token: token)
                return StoredUser(objectId: row[1], username: row[2], name: row[3], createdAt: Self.date(millis: row[4]))
            }
        }
    }

    /// When the session `token` began and when it ends; `sessionExpired` when it is unknown or over.
    public func sessionPeriod(token: String) throws -> (started: Date, expires: Date) {
        try read { db in
            _ = try self.user(db, token: token)
            let started = try Int64.fetchOne(db, sql: "SELECT createdAt FROM session WHERE tokenDigest = ?",
                                             arguments: [RandomIdentifier.tokenDigest(token)]) ?? 0
            let start = Self.date(millis: started)
            return (start, SessionLength(self.sessionLength).end(ofSessionStartedAt: start))
        }
    }

    /// The account with this object id, if there is one.
    public func storedUser(objectId: String) throws -> StoredUser? {
        try read { db in try Self.storedUser(db, where: "objectId = ?", objectId) }
    }

    /// Accounts that meet `condition` (on `_User`'s public fields), in the order they were made,
    /// skipping `skip`, at most `limit`; and how many meet it.
    public func storedUsers(where condition: RecordCondition, skip: Int, limit: Int) throws -> (users: [StoredUser], count: Int) {
        try read { db in
            var translation = RecordConditionSQL(dialect: EmbeddedSQLDialect(), recordClass: .users, schema: [:])
            let sql = translation.sql(condition)
            let arguments = translation.values.map(Self.argument)
            let users = try Row.fetchAll(db, sql: "SELECT objectId, username, name, createdAt FROM user WHERE \(sql) ORDER BY id LIMIT ? OFFSET ?",
                                         arguments: StatementArguments(arguments + [limit, skip])).map {
                StoredUser(objectId: $0["objectId"], username: $0["username"], name: $0["name"], createdAt: Self.date(millis: $0["createdAt"]))
            }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM user WHERE \(sql)", arguments: StatementArguments(arguments))!
            return (users, count)
        }
    }

    private static func storedUser(_ db: Database, where condition: String, _ argument: some DatabaseValueConvertible) throws -> StoredUser? {
        try Row.fetchOne(db, sql: "SELECT objectId, username, name, createdAt FROM user WHERE \(condition)", arguments: [argument]).map {
            StoredUser(objectId: $0["objectId"], username: $0["username"], name: $0["name"], createdAt: date(millis: $0["createdAt"]))
        }
    }

    // MARK: Config

    /// The config parameters as set on this wall: none on a new wall (where `fetchConfig` gives
    /// Anywall's defaults), as a new Parse Server answers.
    public func storedParams() throws -> [String: JSONValue] {
        try read { db in try self.storedParams(db) }
    }

    /// Sets each of `params` (validated by the caller), removes those named in `deleting`, and
    /// marks each key of `masterKeyOnly` as read with the master key only or not, in one
    /// transaction, keeping the others.
    public func setParams(_ params: [String: JSONValue], deleting: Set<String>, masterKeyOnly: [String: Bool]) throws {
        let encoded = try params.map { ($0.key, String(decoding: try JSONEncoder().encode($0.value), as: UTF8.self)) }
        try write { db in
            for (key, json) in encoded {
                try db.execute(sql: "INSERT INTO config (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [key, json])
            }
            for key in deleting { try db.execute(sql: "DELETE FROM config WHERE key = ?", arguments: [key]) }
            for (key, flag) in masterKeyOnly {
                try db.execute(sql: "UPDATE config SET masterKeyOnly = ? WHERE key = ?", arguments: [flag, key])
            }
        }
    }

    /// The config keys only the master key reads.
    public func masterKeyOnlyParams() throws -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT key FROM config WHERE masterKeyOnly")) }
    }

    // MARK: Posts

    /// Leaves a post by `writer` (a session's user is its author; the master key leaves it without
    /// one), with the access and added fields of `draft` (whose fields' types must agree with the
    /// Posts schema, which learns new ones). A `requestId` seen before throws
    /// `AnywallError.duplicateRequest` and writes nothing; it is kept in the same transaction as
    /// the post, so it is refused exactly when the first request took effect.
    public func createStoredPost(_ draft: PostDraft, by writer: PostWriter, requestId: String?) throws -> StoredPost {
        try write { db in try self.insertPost(db, PostCreation(draft: draft, by: writer, requestId: requestId)) }
    }

    /// Leaves several posts in one transaction, so they share one durable commit (group commit),
    /// each as `createStoredPost` would: one refused (a spent request id, an expired session, a
    /// field of the wrong type) writes nothing of its own and is answered alone, in its place.
    /// Throws only when the transaction itself fails, and then none of the posts was left.
    public func createStoredPosts(_ creations: [PostCreation]) throws -> [Result<StoredPost, AnywallError>] {
        try write { db in
            try creations.map { creation in
                var created: StoredPost?
                do {
                    try db.inSavepoint {
                        created = try self.insertPost(db, creation)
                        return .commit
                    }
                } catch let refusal as AnywallError {
                    return .failure(refusal)
                }
                return .success(created!)
            }
        }
    }

    private func insertPost(_ db: Database, _ creation: PostCreation) throws -> StoredPost {
        let draft = creation.draft
        let author = creation.writer == .master ? nil : try user(db, token: creation.writer.token ?? "")
        let now = clock.now()
        try Self.claim(db, requestId: creation.requestId, at: now)
        try Self.admit(db, draft.fields)
        let access = draft.access ?? author.map { .publicRead(author: $0.user.objectId) } ?? .everyone
        // Cached: with group commit the writer runs these back to back, and compiling them was
        // most of a post's time in the transaction.
        try db.cachedStatement(sql: """
            INSERT INTO post (objectId, text, latitude, longitude, userId, createdAt, readers, writers, fields)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                RandomIdentifier.objectId(), draft.text, draft.location.latitude, draft.location.longitude, author?.id,
                Self.millis(now), access.storedReaders, access.storedWriters(author: author?.user.objectId),
                try StoredFields.text(draft.fields),
            ])
        let inserted = try db.cachedStatement(sql: "\(Self.storedPostQuery) WHERE post.id = ?")
        return try Self.storedPost(try Row.fetchOne(inserted, arguments: [db.lastInsertedRowID])!)
    }

    /// The types of the fields clients added to posts.
    public func postSchema() throws -> PostSchema {
        try read { db in try Self.postSchema(db) }
    }

    private static func postSchema(_ db: Database) throws -> PostSchema {
        var types: [String: FieldType] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, type FROM schemaField WHERE className = 'Posts'") {
            if let type = FieldType(rawValue: row[1]) { types[row[0]] = type }
        }
        return PostSchema(types: types)
    }

    /// Adds fields to the Posts schema, and deletes fields with their values from every post.
    public func changePostFields(adding types: [String: FieldType], deleting names: Set<String>) throws {
        try write { db in
            for (name, type) in types {
                try db.execute(sql: "INSERT OR IGNORE INTO schemaField (className, name, type) VALUES ('Posts', ?, ?)", arguments: [name, type.rawValue])
            }
            for name in names {
                try db.execute(sql: "DELETE FROM schemaField WHERE className = 'Posts' AND name = ?", arguments: [name])
                // Names are letters, digits and `_`: safe in the path. A post left with no field keeps none.
                try db.execute(sql: """
                    UPDATE post SET fields = nullif(json_remove(fields, '$.\(name)'), '{}') WHERE json_extract(fields, '$.\(name)') IS NOT NULL
                    """)
            }
        }
    }

    /// Checks `fields` against the Posts schema and records the types of new ones.
    private static func admit(_ db: Database, _ fields: [String: JSONValue]) throws {
        guard !fields.isEmpty else { return }
        var schema = try postSchema(db)
        for (name, type) in try schema.admit(fields) {
            try db.execute(sql: "INSERT INTO schemaField (className, name, type) VALUES ('Posts', ?, ?)", arguments: [name, type.rawValue])
        }
    }

    /// The post with this object id, if there is one.
    public func storedPost(objectId: String) throws -> StoredPost? {
        // One statement, so no transaction of GRDB's `read`, whose `query_only` pragma makes SQLite
        // compile the statement anew each time (most of a fetch's cost).
        try mapped {
            try database.inDatabase { db in
                let statement = try db.cachedStatement(sql: "\(Self.storedPostQuery) WHERE post.objectId = ?")
                return try Row.fetchOne(statement, arguments: [objectId]).map(Self.storedPost)
            }
        }
    }

    /// Whether any reply lies in one of `boxes`: replies stay out of the nearest search's indexes,
    /// and most walls hold none near most places.
    public func holdsReplies(inAny boxes: [BoundingBox]) throws -> Bool {
        try mapped {
            try database.inDatabase { db in
                let statement = try db.cachedStatement(sql: "SELECT 1 FROM (\(Self.replyInBox)) LIMIT 1")
                return try boxes.contains { box in
                    try Int.fetchOne(statement, arguments: [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude]) != nil
                }
            }
        }
    }

    /// The nearest posts `reader` may read, as `nearby` finds them, with their records.
    public func nearestPosts(_ query: WallQuery, for reader: PostReader) throws -> [StoredPost] {
        // The search runs its own read transaction (see `nearby`); a post deleted since is left out.
        try mapped { try database.inDatabase { db in try EmbeddedNearbySearch(db: db, reader: reader, shape: .storedPost, authors: authors, nodes: indexNodes).run(query) } }
    }

    /// Posts that meet `condition`, in `order` (then in the order they were left), skipping
    /// `skip`, at most `limit`.
    public func storedPosts(where condition: RecordCondition, order: [PostOrder], skip: Int, limit: Int) throws -> [StoredPost] {
        try read { db in
            let (sql, arguments, sort) = try Self.sql(db, condition, order: order)
            return try Self.storedPosts(db, where: "\(sql) ORDER BY \((sort + ["post.id"]).joined(separator: ", ")) LIMIT ? OFFSET ?",
                                        arguments + [limit, skip])
        }
    }

    /// How many posts meet `condition`.
    public func countPosts(where condition: RecordCondition) throws -> Int {
        try read { db in
            let (sql, arguments, _) = try Self.sql(db, condition)
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM post WHERE \(sql)", arguments: StatementArguments(arguments))!
        }
    }

    /// Hands `body` each post that meets `condition` and whose point lies in one of `boxes` (any
    /// point when `boxes` is nil), in the order they were left. Posts are read one at a time from
    /// a cursor, so memory stays the size of one post however many match (a world-sized area on
    /// a million-post wall).
    public func forEachStoredPost(inAny boxes: [BoundingBox]?, where condition: RecordCondition, _ body: (StoredPost) throws -> Void) throws {
        try read { db in
            guard let (sql, arguments) = try Self.candidates(db, inAny: boxes, where: condition) else { return }
            let rows = try Row.fetchCursor(db, sql: "\(Self.storedPostQuery) WHERE \(sql) ORDER BY post.id",
                                           arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                let post = try Self.storedPost(row)
                if boxes?.contains(where: { $0.contains(post.location) }) ?? true { try body(post) }
            }
        }
    }

    /// `forEachStoredPost` for a scan that needs of each post only its place and objectId (a count,
    /// a page in the order posts were left or by distance): hands `offer` each post's `PlacedPost`,
    /// then returns whole, in that order, the posts whose row ids `chosen` gives; one read
    /// transaction. A world-sized count takes a seventh of the time reading each whole post took
    /// (docs/performance.md).
    public func placedPosts(inAny boxes: [BoundingBox]?, where condition: RecordCondition,
                            offer: (PlacedPost) throws -> Void, chosen: () -> [Int64]) throws -> [StoredPost] {
        try read { db in
            if let (sql, arguments) = try Self.candidates(db, inAny: boxes, where: condition) {
                let places = try db.makeStatement(sql: "SELECT post.id, post.objectId, post.latitude, post.longitude FROM post WHERE \(sql) ORDER BY post.id")
                try places.setArguments(StatementArguments(arguments))
                try db.forEachRow(of: places) { row in
                    let location = try GeoPoint(latitude: sqlite3_column_double(row, 2), longitude: sqlite3_column_double(row, 3))
                    guard boxes?.contains(where: { $0.contains(location) }) ?? true else { return }
                    try offer(PlacedPost(rowId: sqlite3_column_int64(row, 0), objectId: columnText(row, 1) ?? "", location: location))
                }
            }
            let ids = chosen()
            guard !ids.isEmpty else { return [] }
            var posts: [Int64: StoredPost] = [:]
            for row in try Row.fetchAll(db, sql: "\(Self.storedPostQuery) WHERE post.id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))",
                                        arguments: StatementArguments(ids)) {
                posts[row[0]] = try Self.storedPost(row)
            }
            return ids.compactMap { posts[$0] }
        }
    }

    /// The SQL over `post` and its arguments for the posts that meet `condition` and may lie in one
    /// of `boxes` (the caller tests each post's exact place); nil when `boxes` is empty.
    private static func candidates(_ db: Database, inAny boxes: [BoundingBox]?,
                                   where condition: RecordCondition) throws -> (String, [any DatabaseValueConvertible])? {
        var (sql, arguments, _) = try Self.sql(db, condition)
        guard let boxes else { return (sql, arguments) }
        guard !boxes.isEmpty else { return nil }
        if try holdManyPosts(db, boxes) {
            // Every post's row read in order, its exact place tested: for a world-sized area, a
            // fifteenth of the time collecting the index's ids took (SQLite puts them in a b-tree
            // of their own to look each post up; docs/performance.md).
            sql += " AND (\(Array(repeating: "(post.latitude BETWEEN ? AND ? AND post.longitude BETWEEN ? AND ?)", count: boxes.count).joined(separator: " OR ")))"
            arguments += boxes.flatMap { [$0.minLatitude, $0.maxLatitude, $0.minLongitude, $0.maxLongitude] as [any DatabaseValueConvertible] }
        } else {
            // The R*Tree's floats are rounded outward: it never misses a point in the box.
            // Both trees, and the replies: the condition says which posts the reader may see.
            let indexes = condition.requires(.exists(.parent)) ? [replyInBox] : threadPostInBox + [replyInBox]
            sql += " AND post.id IN (\(Array(repeating: indexes, count: boxes.count).flatMap { $0 }.joined(separator: " UNION ")))"
            arguments += boxes.flatMap { box in
                Array(repeating: [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude] as [any DatabaseValueConvertible], count: indexes.count).flatMap { $0 }
            }
        }
        return (sql, arguments)
    }

    /// The ids of the thread posts, in both location indexes, whose stored box meets a box (each
    /// the box's four bounds).
    private static let threadPostInBox = ["postLocation", "restrictedPostLocation"].map {
        "SELECT id FROM \($0) WHERE maxLatitude >= ? AND minLatitude <= ? AND maxLongitude >= ? AND minLongitude <= ?"
    }

    /// The ids of the replies in a box (its four bounds), which the R*Trees do not hold.
    private static let replyInBox = "SELECT id FROM post INDEXED BY replyPlace WHERE parentId IS NOT NULL AND latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?"

    /// Whether `boxes` hold at least a fifteenth of the wall's posts (by the index, counting no
    /// further): then reading every post costs less than looking each candidate up.
    private static func holdManyPosts(_ db: Database, _ boxes: [BoundingBox]) throws -> Bool {
        // The highest row id bounds the number of posts, and costs one step down the table.
        let posts = try Int.fetchOne(db, sql: "SELECT max(id) FROM post") ?? 0
        let enough = max(1_000, posts / 15)
        let inBoxes = Array(repeating: "SELECT 1 FROM postLocation WHERE maxLatitude >= ? AND minLatitude <= ? AND maxLongitude >= ? AND minLongitude <= ?",
                            count: boxes.count).joined(separator: " UNION ALL ")
        let arguments = boxes.flatMap { [$0.minLatitude, $0.maxLatitude, $0.minLongitude, $0.maxLongitude] as [any DatabaseValueConvertible] }
        let found = try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(inBoxes) LIMIT ?)", arguments: StatementArguments(arguments + [enough])) ?? 0
        return found >= enough
    }

    /// `condition` as SQL over `post` (and `user`), with its arguments, and `order`'s sort terms.
    private static func sql(_ db: Database, _ condition: RecordCondition,
                            order: [PostOrder] = []) throws -> (String, [any DatabaseValueConvertible], [String]) {
        var translation = RecordConditionSQL(dialect: EmbeddedSQLDialect(), recordClass: .posts, schema: try postSchema(db).types)
        let sql = translation.sql(condition)
        return (sql, translation.values.map(argument), translation.sortTerms(order))
    }

    private static func argument(_ value: FieldValue) -> any DatabaseValueConvertible {
        switch value {
        case .string(let text): return text
        case .number(let number): return number
        case .bool(let flag): return flag
        case .date(let date): return millis(date)
        case .null: return DatabaseValue.null
        }
    }

    /// Changes a post as `writer`; `AnywallError.notWritable` when it may not (or there is no such
    /// post). Returns when it was changed and its added fields after the change.
    public func updatePost(objectId: String, changes: PostChanges, by writer: PostWriter, requestId: String?) throws -> (updatedAt: Date, fields: [String: JSONValue]) {
        try write { db in
            let (rowId, post) = try self.writablePost(db, objectId: objectId, by: writer)
            let now = self.clock.now()
            try Self.claim(db, requestId: requestId, at: now)
            var schema = try Self.postSchema(db)
            let known = schema.types
            let fields = try changes.fields(after: post.fields, schema: &schema)
            for (name, type) in schema.types where known[name] == nil {
                try db.execute(sql: "INSERT INTO schemaField (className, name, type) VALUES ('Posts', ?, ?)", arguments: [name, type.rawValue])
            }
            let access = changes.access ?? post.access
            try db.execute(sql: """
                UPDATE post SET text = COALESCE(?, text), latitude = COALESCE(?, latitude), longitude = COALESCE(?, longitude),
                    readers = ?, writers = ?, fields = ?, updatedAt = ? WHERE id = ?
                """, arguments: [changes.text, changes.location?.latitude, changes.location?.longitude, access.storedReaders,
                                 access.storedWriters(author: post.author?.objectId), try StoredFields.text(fields), Self.millis(now), rowId])
            return (Self.date(millis: Self.millis(now)), fields)
        }
    }

    /// Deletes a post as `writer`; `AnywallError.notWritable` when it may not.
    public func deletePost(objectId: String, by writer: PostWriter) throws {
        try write { db in
            let rowId = try self.writablePost(db, objectId: objectId, by: writer).rowId
            // A reply leaves its thread's count with it; a thread's post takes its replies (ON DELETE CASCADE).
            try db.execute(sql: "UPDATE post SET replyCount = replyCount - 1 WHERE id = (SELECT parentId FROM post WHERE id = ?)", arguments: [rowId])
            try db.execute(sql: "DELETE FROM post WHERE id = ?", arguments: [rowId])
        }
    }

    /// Forgets request ids older than `date`: a retry after that is taken as a new request.
    public func forgetRequestIds(before date: Date) throws {
        try write { db in try db.execute(sql: "DELETE FROM request WHERE createdAt < ?", arguments: [Self.millis(date)]) }
    }

    // MARK: Helpers

    private func writablePost(_ db: Database, objectId: String, by writer: PostWriter) throws -> (rowId: Int64, post: StoredPost) {
        let caller = try writer.token.map { try user(db, token: $0) }
        guard let row = try Row.fetchOne(db, sql: "\(Self.storedPostQuery) WHERE post.objectId = ?", arguments: [objectId]) else {
            throw AnywallError.notWritable(objectId: objectId)
        }
        let post = try Self.storedPost(row)
        let roles = try caller.map { caller in
            Set(try String.fetchAll(db, sql: "SELECT role.name FROM roleUser JOIN role ON role.id = roleUser.roleId WHERE roleUser.userId = ?",
                                    arguments: [caller.id]))
        } ?? []
        guard writer.mayChange(post.access, callerId: caller?.user.objectId, roles: roles) else { throw AnywallError.notWritable(objectId: objectId) }
        return (row[0], post)
    }

    /// Records a request id, or throws `AnywallError.duplicateRequest` when it was recorded before.
    private static func claim(_ db: Database, requestId: String?, at now: Date) throws {
        guard let requestId else { return }
        try db.cachedStatement(sql: "INSERT INTO request (id, createdAt) VALUES (?, ?) ON CONFLICT DO NOTHING")
            .execute(arguments: [requestId, millis(now)])
        if db.changesCount == 0 { throw AnywallError.duplicateRequest(requestId: requestId) }
    }

    private static func storedPosts(_ db: Database, where clause: String, _ arguments: [any DatabaseValueConvertible]) throws -> [StoredPost] {
        try Row.fetchAll(db, sql: "\(storedPostQuery) WHERE \(clause)", arguments: StatementArguments(arguments)).map(storedPost)
    }

    /// A post from a row of `storedPostQuery`, read by column position (GRDB's lookup by name
    /// folds the names' case on every read: a tenth of a find's time).
    static func storedPost(_ row: Row) throws -> StoredPost {
        let createdAt = date(millis: row[5])
        let author: StoredUser? = (row[10] as String?).map {
            StoredUser(objectId: $0, username: row[11], name: row[12], createdAt: date(millis: row[13]))
        }
        return StoredPost(objectId: row[1], text: row[2], location: try GeoPoint(latitude: row[3], longitude: row[4]),
                          author: author, createdAt: createdAt, updatedAt: (row[6] as Int64?).map(date(millis:)) ?? createdAt,
                          access: PostAccess(storedReaders: row[7], storedWriters: row[8], author: author?.objectId),
                          fields: try StoredFields.fields(row[9]), parent: row[14], score: row[15], replyCount: row[16],
                          reportCount: row[18], removed: (row[17] as String?).flatMap(PostRemoval.init(rawValue:)),
                          restoredAt: (row[19] as Int64?).map(date(millis:)))
    }
}

extension EmbeddedWall {
    /// Ends the session a token opened; `sessionExpired` when there is none (already ended, or never).
    public func endSession(token: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM session WHERE tokenDigest = ?", arguments: [RandomIdentifier.tokenDigest(token)])
            if db.changesCount == 0 {
                throw AnywallError.sessionExpired
            }
        }
    }
}
