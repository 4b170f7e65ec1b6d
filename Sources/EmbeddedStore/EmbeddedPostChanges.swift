import Foundation
import GRDB
import WallDomain

// The change log (migration v7) as LiveQuery reads it: each write to a post, in commit order,
// with the post before and after it.
extension EmbeddedWall {
    /// The changes after `seq`, at most `limit`, read in one snapshot of the wall.
    public func postChanges(after seq: Int64, limit: Int) throws -> PostChangePage {
        try read { db in
            let prunedThrough = try Int64.fetchOne(db, sql: "SELECT prunedThrough FROM changeHorizon")!
            let latest = max(prunedThrough, try Int64.fetchOne(db, sql: "SELECT max(seq) FROM postChange") ?? 0)
            let all = try Row.fetchAll(db, sql: """
                SELECT seq, change, objectId, className = 'Activity' FROM postChange WHERE seq > ? AND change <> 'gap' ORDER BY seq LIMIT ?
                """, arguments: [seq, limit]).compactMap { row in
                PostChange.Kind(rawValue: row[1]).map { PostChange.Entry(seq: row[0], kind: $0, objectId: row[2], isActivity: row[3]) }
            }
            let entries = all.filter { !$0.isActivity }
            guard let last = all.last?.seq, !entries.isEmpty else {
                return PostChangePage(entries: all, changes: [], latest: latest, prunedThrough: prunedThrough)
            }
            // Position 20, after the columns `storedPost(_:)` reads by position.
            let changed = "SELECT \(Self.storedPostColumns), post.seq FROM postChange AS post LEFT JOIN user ON user.id = post.userId"
            var befores: [Int64: StoredPost] = [:]
            for row in try Row.fetchAll(db, sql: "\(changed) WHERE post.seq > ? AND post.seq <= ? AND post.change <> 'create' AND post.className = 'Posts'",
                                        arguments: [seq, last]) {
                befores[row[20]] = try Self.storedPost(row)
            }
            var lastKind: [String: PostChange.Kind] = [:]
            for entry in entries { lastKind[entry.objectId] = entry.kind }
            let open = lastKind.filter { $0.value != .delete }.map(\.key)
            var following: [String: StoredPost] = [:]
            if !open.isEmpty {
                let list = Array(repeating: "?", count: open.count).joined(separator: ", ")
                // A later write's row holds the post as this page's last write left it; else the post itself does.
                for row in try Row.fetchAll(db, sql: "\(Self.storedPostQuery) WHERE post.objectId IN (\(list))", arguments: StatementArguments(open)) {
                    let post = try Self.storedPost(row)
                    following[post.objectId] = post
                }
                let later = "SELECT min(seq) FROM postChange WHERE seq > ? AND className = 'Posts' AND objectId IN (\(list)) GROUP BY objectId"
                for row in try Row.fetchAll(db, sql: "\(changed) WHERE post.seq IN (\(later))", arguments: StatementArguments([last] + open)) {
                    let post = try Self.storedPost(row)
                    following[post.objectId] = post
                }
            }
            return PostChangePage(entries: all, changes: PostChange.assemble(entries, befores: befores, following: following), latest: latest,
                                  prunedThrough: prunedThrough)
        }
    }

    /// Forgets the changes made before `date`, and the oldest beyond the newest `bytes` of posts'
    /// copies (an update keeps the whole post as it was: 64 KiB fields rewritten in a loop must not
    /// grow the file, and the page cache with it). A replay from before them is told to read the wall again.
    public func pruneChanges(before date: Date, keepingAtMost bytes: Int) throws {
        try write { db in
            let byAge = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM postChange WHERE at < ?", arguments: [Self.millis(date)])
            let bySize = try Int64.fetchOne(db, sql: """
                SELECT max(seq) FROM (SELECT seq, sum(\(Self.changeRowBytes)) OVER (ORDER BY seq DESC) AS newer FROM postChange) WHERE newer > ?
                """, arguments: [bytes])
            guard let through = [byAge, bySize].compactMap({ $0 }).max() else { return }
            try db.execute(sql: "DELETE FROM postChange WHERE seq <= ?", arguments: [through])
            try db.execute(sql: "UPDATE changeHorizon SET prunedThrough = max(prunedThrough, ?)", arguments: [through])
        }
    }

    /// A change row's size, near enough: its copies of the post's text and fields, and the rest.
    private static let changeRowBytes = "coalesce(length(text), 0) + coalesce(length(fields), 0) + 100"

    /// Marks the writes just made without rows of their own (a load in bulk) as a gap in the log.
    /// Adds posts through `body` as one gap in the change log, not a row a post: for posts no
    /// one saw being written (a load in bulk, a copy). In the caller's transaction: if it fails,
    /// the trigger is back with the rollback.
    func addingAsOneChangeGap<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.execute(sql: "DROP TRIGGER postChangeCreate")
        let result = try body()
        try db.execute(sql: EmbeddedSchema.postChangeCreateTrigger)
        try markChangeGap(db)
        return result
    }

    func markChangeGap(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO postChange (change, at, objectId) VALUES ('gap', 0, '')")
        let gap = db.lastInsertedRowID
        try db.execute(sql: "UPDATE changeHorizon SET prunedThrough = ?", arguments: [gap])
    }
}
