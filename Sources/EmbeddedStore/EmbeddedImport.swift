import AnywallSupport
import Foundation
import GRDB
import GRDBSQLite
import WallDomain

/// What one batch of `import` did.
public struct ImportOutcome: Equatable, Sendable {
    /// Posts added to the wall.
    public var imported = 0
    /// Posts whose objectId the wall already had (importing the same file twice changes nothing).
    public var alreadyPresent = 0
    /// Authors created as users who cannot log in until they are given a password.
    public var usersCreated = 0

    /// An outcome with nothing done yet, to add batches to.
    public init() {}
}

extension EmbeddedWall {
    /// Adds posts in one transaction, keeping their objectId, createdAt, text, location and author.
    ///
    /// An author the wall does not know becomes a user without a password. A record without an
    /// objectId gets one derived from its content (`contentObjectId`); one without createdAt, the current time.
    public func importPosts(_ posts: [ImportedPost]) throws -> ImportOutcome {
        var authors: [ImportedPost.Author: Int64] = [:]
        return try importPosts(posts, authors: &authors)
    }

    /// `importPosts` for one batch of a larger import: `authors` holds the user ids of the
    /// authors earlier batches met (most posts are by an author met before), and learns this
    /// batch's once it committed.
    public func importPosts(_ posts: [ImportedPost], authors: inout [ImportedPost.Author: Int64]) throws -> ImportOutcome {
        var known = authors
        let outcome = try write { db in try self.insertImported(posts, db: db, authors: &known) }
        authors = known
        return outcome
    }

    /// Loads many posts in one transaction, for a wall filled in one go: `body` is given a
    /// function that adds a batch (as `importPosts`, without a commit of its own). The location
    /// index is not updated post by post but built anew once all are in (`PointIndexBuild`),
    /// a tenth of the cost; in an empty wall, from the points as they went in, while they are at
    /// most `pointsInMemory`. Other writers wait until it is done; if anything fails, nothing of
    /// the load stays.
    /// The points a load keeps in memory for its index build unless told otherwise: ~75 MB at most.
    public static let loadPointsInMemory = 2_000_000

    public func loadPosts(pointsInMemory: Int = loadPointsInMemory,
                          _ body: (_ add: ([ImportedPost]) throws -> ImportOutcome) throws -> Void) throws {
        // A million creates would be a million change rows: the load is one gap in the log
        // instead, and a subscriber resuming from before it is told to read the wall again.
        try write { db in try addingAsOneChangeGap(db) {
            try db.execute(sql: "DROP TRIGGER postLocationInsert")
            let isEmpty = try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM post)") ?? false
            let points = isEmpty ? LoadedPoints(limit: pointsInMemory) : nil
            var authors: [ImportedPost.Author: Int64] = [:]
            try body { posts in try self.insertImported(posts, db: db, authors: &authors, points: points) }
            let index = PointIndexBuild(table: "postLocation")
            if let kept = points?.kept {
                try index.rebuild(db, points: kept)
            } else {
                try index.rebuild(db, from: "SELECT id, latitude, longitude FROM post WHERE readers IS NULL AND parentId IS NULL AND removed IS NULL")
            }
            try db.execute(sql: EmbeddedSchema.postLocationInsertTrigger)
        } }
    }

    /// The number of posts on the wall.
    public func postCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM post")! }
    }

    private func insertImported(_ posts: [ImportedPost], db: Database, authors: inout [ImportedPost.Author: Int64],
                                points: LoadedPoints? = nil) throws -> ImportOutcome {
        var outcome = ImportOutcome()
        let insertPost = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO post (objectId, text, latitude, longitude, userId, createdAt) VALUES (?, ?, ?, ?, ?, ?)
            """)
        // Bound through the C API: GRDB's arguments box each value, and a load binds millions.
        let row = insertPost.sqliteStatement
        // Nothing bound may outlive the strings it points into (below), whatever happens.
        defer { sqlite3_clear_bindings(row) }
        let now = Self.millis(Date())
        for post in posts {
            var userId: Int64?
            if let author = post.author {
                if let id = authors[author] {
                    userId = id
                } else {
                    userId = try importedUser(author, db: db, outcome: &outcome)
                    authors[author] = userId
                }
            }
            sqlite3_bind_double(row, 3, post.location.latitude)
            sqlite3_bind_double(row, 4, post.location.longitude)
            if let userId { sqlite3_bind_int64(row, 5, userId) } else { sqlite3_bind_null(row, 5) }
            sqlite3_bind_int64(row, 6, post.createdAt.map(Self.millis) ?? now)
            // The strings bound in place (no destructor: SQLite reads them where they are, until
            // the step is done), not copied: two allocations a post fewer.
            try (post.objectId ?? post.contentObjectId).withCString { objectId in
                try post.text.withCString { text in
                    sqlite3_bind_text(row, 1, objectId, -1, nil)
                    sqlite3_bind_text(row, 2, text, -1, nil)
                    try db.run(insertPost)
                }
            }
            if sqlite3_changes(db.sqliteConnection) == 1 {
                outcome.imported += 1
                points?.add(id: sqlite3_last_insert_rowid(db.sqliteConnection), latitude: post.location.latitude, longitude: post.location.longitude)
            } else {
                outcome.alreadyPresent += 1
            }
        }
        return outcome
    }

    /// The id of the author's user, created without a password when the wall does not have it.
    /// A Parse pointer names only the objectId: the user is then named by it until renamed.
    private func importedUser(_ author: ImportedPost.Author, db: Database, outcome: inout ImportOutcome) throws -> Int64 {
        if let objectId = author.objectId,
           let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM user WHERE objectId = ?"), arguments: [objectId]) {
            return id
        }
        let username = try Username.validated(author.username ?? author.objectId ?? "")
        if let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM user WHERE username = ?"), arguments: [username]) {
            return id
        }
        try db.cachedStatement(sql: "INSERT INTO user (objectId, username, name, passwordHash, createdAt) VALUES (?, ?, ?, NULL, ?)")
            .execute(arguments: [author.objectId ?? RandomIdentifier.objectId(), username, try DisplayName.validated(author.name), Self.millis(Date())])
        outcome.usersCreated += 1
        return db.lastInsertedRowID
    }
}
