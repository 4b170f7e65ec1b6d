import AnywallSupport
import Foundation
import GRDB
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
    /// objectId or createdAt gets a new id and the current time.
    public func importPosts(_ posts: [ImportedPost]) throws -> ImportOutcome {
        try write { db in
            var outcome = ImportOutcome()
            let insertPost = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO post (objectId, text, latitude, longitude, userId, createdAt) VALUES (?, ?, ?, ?, ?, ?)
                """)
            let now = Self.millis(Date())
            for post in posts {
                let userId = try post.author.map { try self.importedUser($0, db: db, outcome: &outcome) }
                try insertPost.execute(arguments: [
                    post.objectId ?? RandomIdentifier.objectId(), post.text, post.location.latitude, post.location.longitude,
                    userId, post.createdAt.map(Self.millis) ?? now,
                ])
                if db.changesCount == 1 { outcome.imported += 1 } else { outcome.alreadyPresent += 1 }
            }
            return outcome
        }
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
            .execute(arguments: [author.objectId ?? RandomIdentifier.objectId(), username, author.name, Self.millis(Date())])
        outcome.usersCreated += 1
        return db.lastInsertedRowID
    }
}
