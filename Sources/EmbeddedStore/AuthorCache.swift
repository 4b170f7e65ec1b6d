import Foundation
import GRDB
import GRDBSQLite
import WallDomain

/// The authors a long-lived wall has read for its nearest searches, by their row id.
///
/// Reading each candidate's author from `user` took a nearest search at a city a fifth of its
/// time (a lookup in another b-tree for each of its ~22 candidates), though most authors are the
/// same from one search to the next. What is kept stays true while `authorsVersion` (migration v4:
/// raised by a trigger whenever an account changes or goes, in any process, beside an id of the
/// wall that a file restored over it changes) reads the same; a search that sees another starts
/// afresh. A one-shot command reads each author once, as before.
///
/// The wall's database queue runs one search at a time; the lock is for the compiler's sake.
final class AuthorCache: @unchecked Sendable {
    /// The bytes of text kept at most (a name may be as long as a request allows); past it the
    /// cache keeps no more until a search starts it afresh.
    static var capacity: Int { 8 << 20 }

    // Unchecked: the fields are guarded by `lock`.
    private let lock = NSLock()
    private var version: (wall: String, value: Int64)?
    private var authors: [Int64: StoredUser] = [:]
    private var bytes = 0

    /// Forgets what the wall changed since the last search: called in each search's read
    /// transaction before any `author(_:in:)`.
    func refresh(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: "SELECT wall, value FROM authorsVersion").sqliteStatement
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "the wall has no authorsVersion")
        }
        let current = (wall: columnText(statement, 0) ?? "", value: sqlite3_column_int64(statement, 1))
        lock.withLock {
            if version.map({ $0 != current }) ?? true || bytes >= Self.capacity {
                authors.removeAll(keepingCapacity: true)
                bytes = 0
                version = current
            }
        }
    }

    /// The user with row id `id`, or nil when there is none.
    func author(_ id: Int64, in db: Database) throws -> StoredUser? {
        if let author = lock.withLock({ authors[id] }) { return author }
        let statement = try db.cachedStatement(sql: "SELECT objectId, username, name, createdAt FROM user WHERE id = ?")
        var found: StoredUser?
        sqlite3_bind_int64(statement.sqliteStatement, 1, id)
        try db.forEachRow(of: statement) { row in
            found = StoredUser(objectId: columnText(row, 0) ?? "", username: columnText(row, 1) ?? "", name: columnText(row, 2),
                               createdAt: EmbeddedWall.date(millis: sqlite3_column_int64(row, 3)))
        }
        if let found {
            let size = found.objectId.utf8.count + found.username.utf8.count + (found.name?.utf8.count ?? 0)
            lock.withLock {
                guard bytes + size <= Self.capacity else { return }
                authors[id] = found
                bytes += size
            }
        }
        return found
    }
}
