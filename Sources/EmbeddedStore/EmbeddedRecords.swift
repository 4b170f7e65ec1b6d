import AnywallSupport
import Foundation
import GRDB
import WallDomain

// The embedded wall record by record, as anywall-server serves it: posts with their authors and
// timestamps, edits and deletions by the author only, and request ids kept with the writes they made.
extension EmbeddedWall {
    private static let storedPostQuery = """
        SELECT post.id AS rowId, post.objectId, post.text, post.latitude, post.longitude, post.createdAt, post.updatedAt,
               user.objectId AS userObjectId, user.username, user.name, user.createdAt AS userCreatedAt
        FROM post LEFT JOIN user ON user.id = post.userId
        """

    // MARK: Users

    /// The account a session token belongs to; `sessionExpired` when the token is unknown or ended.
    public func storedUser(token: String) throws -> StoredUser {
        try read { db in
            let id = try self.user(db, token: token).id
            return try Self.storedUser(db, where: "id = ?", id)!
        }
    }

    /// The account with this object id, if there is one.
    public func storedUser(objectId: String) throws -> StoredUser? {
        try read { db in try Self.storedUser(db, where: "objectId = ?", objectId) }
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

    // MARK: Posts

    /// Leaves a post as the token's user. A `requestId` seen before throws `AnywallError.duplicateRequest` and
    /// writes nothing; it is kept in the same transaction as the post, so it is refused exactly
    /// when the first request took effect.
    public func createStoredPost(text: String, at location: GeoPoint, token: String, requestId: String?) throws -> StoredPost {
        try write { db in
            let author = try self.user(db, token: token)
            let now = self.clock.now()
            try Self.claim(db, requestId: requestId, at: now)
            let objectId = RandomIdentifier.objectId()
            try db.execute(
                sql: "INSERT INTO post (objectId, text, latitude, longitude, userId, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [objectId, text, location.latitude, location.longitude, author.id, Self.millis(now)])
            return try Self.storedPosts(db, where: "post.id = ?", [db.lastInsertedRowID])[0]
        }
    }

    /// The post with this object id, if there is one.
    public func storedPost(objectId: String) throws -> StoredPost? {
        try read { db in try Self.storedPosts(db, where: "post.objectId = ?", [objectId]).first }
    }

    /// The nearest posts, as `nearby` finds them, with their records.
    public func nearestPosts(_ query: WallQuery) throws -> [StoredPost] {
        // The search runs its own read transaction (see `nearby`); a post deleted since is left out.
        try mapped {
            try database.inDatabase { db in
                let rowIds = try EmbeddedNearbySearch(db: db).run(query).map(\.rowId)
                let byRow = try Self.storedPostsByRow(db, rowIds)
                return rowIds.compactMap { byRow[$0] }
            }
        }
    }

    /// Posts in `order` (then in the order they were left), skipping `skip`, at most `limit`;
    /// only those with the given object ids when `objectIds` is set.
    public func storedPosts(objectIds: [String]?, order: [PostOrder], skip: Int, limit: Int) throws -> [StoredPost] {
        let (condition, arguments) = Self.condition(objectIds: objectIds)
        let sort = (order.map(\.sql) + ["post.id"]).joined(separator: ", ")
        return try read { db in
            try Self.storedPosts(db, where: "\(condition) ORDER BY \(sort) LIMIT ? OFFSET ?", arguments + [limit, skip])
        }
    }

    /// How many posts there are (with the given object ids, when `objectIds` is set).
    public func countPosts(objectIds: [String]?) throws -> Int {
        let (condition, arguments) = Self.condition(objectIds: objectIds)
        return try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM post WHERE \(condition)", arguments: StatementArguments(arguments))!
        }
    }

    /// Hands `body` each post whose point lies in one of `boxes` (every post when `boxes` is nil),
    /// with the given object ids when `objectIds` is set, in the order they were left. Posts are
    /// read one at a time from a cursor, so memory stays the size of one post however many match
    /// (a world-sized area on a million-post wall).
    public func forEachStoredPost(inAny boxes: [BoundingBox]?, objectIds: [String]?, _ body: (StoredPost) throws -> Void) throws {
        var (condition, arguments) = Self.condition(objectIds: objectIds)
        if let boxes {
            guard !boxes.isEmpty else { return }
            // The R*Tree's floats are rounded outward: it never misses a point in the box.
            let inBox = "SELECT id FROM postLocation WHERE maxLatitude >= ? AND minLatitude <= ? AND maxLongitude >= ? AND minLongitude <= ?"
            condition += " AND post.id IN (\(Array(repeating: inBox, count: boxes.count).joined(separator: " UNION ")))"
            arguments += boxes.flatMap { [$0.minLatitude, $0.maxLatitude, $0.minLongitude, $0.maxLongitude] as [any DatabaseValueConvertible] }
        }
        try read { db in
            let rows = try Row.fetchCursor(db, sql: "\(Self.storedPostQuery) WHERE \(condition) ORDER BY post.id",
                                           arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                let post = try Self.storedPost(row)
                if boxes?.contains(where: { $0.contains(post.location) }) ?? true { try body(post) }
            }
        }
    }

    /// Changes a post's text and/or place, as the token's user, who must be its author;
    /// otherwise (or when there is no such post) `AnywallError.notWritable`. Returns when it was changed.
    public func updatePost(objectId: String, text: String?, location: GeoPoint?, token: String, requestId: String?) throws -> Date {
        try write { db in
            let rowId = try self.ownPost(db, objectId: objectId, token: token)
            let now = self.clock.now()
            try Self.claim(db, requestId: requestId, at: now)
            try db.execute(sql: """
                UPDATE post SET text = COALESCE(?, text), latitude = COALESCE(?, latitude), longitude = COALESCE(?, longitude),
                    updatedAt = ? WHERE id = ?
                """, arguments: [text, location?.latitude, location?.longitude, Self.millis(now), rowId])
            return Self.date(millis: Self.millis(now))
        }
    }

    /// Deletes a post, as the token's user, who must be its author; otherwise `AnywallError.notWritable`.
    public func deletePost(objectId: String, token: String) throws {
        try write { db in
            let rowId = try self.ownPost(db, objectId: objectId, token: token)
            try db.execute(sql: "DELETE FROM post WHERE id = ?", arguments: [rowId])
        }
    }

    /// Forgets request ids older than `date`: a retry after that is taken as a new request.
    public func forgetRequestIds(before date: Date) throws {
        try write { db in try db.execute(sql: "DELETE FROM request WHERE createdAt < ?", arguments: [Self.millis(date)]) }
    }

    // MARK: Helpers

    private func ownPost(_ db: Database, objectId: String, token: String) throws -> Int64 {
        let caller = try user(db, token: token).user
        guard let row = try Row.fetchOne(db, sql: """
                SELECT post.id, user.objectId AS authorId FROM post LEFT JOIN user ON user.id = post.userId WHERE post.objectId = ?
                """, arguments: [objectId]),
              PostAccess.mayChange(authorId: row["authorId"], userId: caller.objectId) else {
            throw AnywallError.notWritable(objectId: objectId)
        }
        return row["id"]
    }

    /// Records a request id, or throws `AnywallError.duplicateRequest` when it was recorded before.
    private static func claim(_ db: Database, requestId: String?, at now: Date) throws {
        guard let requestId else { return }
        try db.execute(sql: "INSERT INTO request (id, createdAt) VALUES (?, ?) ON CONFLICT DO NOTHING",
                       arguments: [requestId, millis(now)])
        if db.changesCount == 0 { throw AnywallError.duplicateRequest(requestId: requestId) }
    }

    private static func condition(objectIds: [String]?) -> (String, [any DatabaseValueConvertible]) {
        guard let objectIds else { return ("1", []) }
        // Encoding strings cannot fail; an empty list would match nothing, as it should.
        let list = String(decoding: (try? JSONEncoder().encode(objectIds)) ?? Data("[]".utf8), as: UTF8.self)
        return ("post.objectId IN (SELECT value FROM json_each(?))", [list])
    }

    private static func storedPostsByRow(_ db: Database, _ rowIds: [Int64]) throws -> [Int64: StoredPost] {
        let list = Self.jsonList(rowIds)
        let rows = try Row.fetchAll(db, sql: "\(storedPostQuery) WHERE post.id IN (SELECT value FROM json_each(?))", arguments: [list])
        var byRow: [Int64: StoredPost] = [:]
        for row in rows { byRow[row["rowId"]] = try storedPost(row) }
        return byRow
    }

    private static func storedPosts(_ db: Database, where clause: String, _ arguments: [any DatabaseValueConvertible]) throws -> [StoredPost] {
        try Row.fetchAll(db, sql: "\(storedPostQuery) WHERE \(clause)", arguments: StatementArguments(arguments)).map(storedPost)
    }

    private static func storedPost(_ row: Row) throws -> StoredPost {
        let createdAt = date(millis: row["createdAt"])
        let author: StoredUser? = (row["userObjectId"] as String?).map {
            StoredUser(objectId: $0, username: row["username"], name: row["name"], createdAt: date(millis: row["userCreatedAt"]))
        }
        return StoredPost(objectId: row["objectId"], text: row["text"],
                          location: try GeoPoint(latitude: row["latitude"], longitude: row["longitude"]),
                          author: author, createdAt: createdAt,
                          updatedAt: (row["updatedAt"] as Int64?).map(date(millis:)) ?? createdAt)
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
