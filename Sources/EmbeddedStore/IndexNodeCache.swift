import Foundation
import GRDB
import GRDBSQLite

/// The location index's nodes a long-lived wall has read (`PointIndexScan`), as stored, kept
/// while the wall is unchanged.
///
/// A nearest search at a city reads ~23 nodes, each a step of a statement and a lookup in the
/// node table: a fifth of its instructions. A wall nobody writes to answers from memory; any
/// commit, in this process or another, empties the cache (SQLite's data version of the file), so
/// a wall taking posts reads its nodes as before. At most `capacity` nodes (~1.2 KB each) are kept.
///
/// The wall's database queue runs one search at a time; the lock is for the compiler's sake.
final class IndexNodeCache: @unchecked Sendable {
    /// Nodes kept at most: the upper levels of a large tree and the leaves of its busiest places.
    static var capacity: Int { 4_096 }

    // Unchecked: both fields are guarded by `lock`.
    private let lock = NSLock()
    private var dataVersion: UInt32?
    private var nodes: [Int64: [UInt8]] = [:]

    /// Forgets every node if the file changed since the last search: called in a search's read
    /// transaction once it has read (SQLite checks the file when a transaction first reads).
    func refresh(_ db: Database) {
        var current: UInt32 = 0
        let known = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_DATA_VERSION, &current) == SQLITE_OK
        lock.withLock {
            if !known || current != dataVersion || nodes.count >= Self.capacity {
                nodes.removeAll(keepingCapacity: true)
                dataVersion = known ? current : nil
            }
        }
    }

    /// Node `number` as stored, if kept.
    func node(_ number: Int64) -> [UInt8]? {
        lock.withLock { nodes[number] }
    }

    /// Keeps node `number`, unless the cache is full (until the next search starts it afresh).
    func keep(_ number: Int64, _ bytes: [UInt8]) {
        lock.withLock {
            if nodes.count < Self.capacity { nodes[number] = bytes }
        }
    }
}
