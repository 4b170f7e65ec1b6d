import Dispatch
import GRDB
import GRDBSQLite
import WallDomain

/// A connection's `QueryTimeLimit` at work: SQLite's progress handler, called every
/// `checkInterval` steps of its engine, interrupts the statement running past the deadline that
/// `running` set for a read, wherever the time goes (the scan, a `$regex` on each row, a sort).
final class QueryDeadline: @unchecked Sendable {
    // Unchecked: `deadline` is set and read on the thread that holds the connection, inside
    // GRDB's serialised access to it.
    let limit: QueryTimeLimit
    private var deadline: UInt64 = .max

    /// Steps of SQLite's engine between two looks at the clock: a few microseconds' work, so the
    /// clock costs nothing measurable and a statement stops within a millisecond of the deadline.
    private static let checkInterval: Int32 = 1000

    init(_ limit: QueryTimeLimit) {
        self.limit = limit
    }

    /// Installs the handler on `db`'s connection; the handler holds this deadline unretained, and
    /// the wall that owns both keeps it alive.
    func install(on db: Database) {
        sqlite3_progress_handler(db.sqliteConnection, Self.checkInterval, { context in
            let deadline = Unmanaged<QueryDeadline>.fromOpaque(context!).takeUnretainedValue().deadline
            // No clock outside a find (a nearest search, a fetch by id on the same connection).
            return deadline != .max && DispatchTime.now().uptimeNanoseconds > deadline ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `body` with the deadline set from now; SQLite's interruption past it is `Exceeded`.
    func running<T>(_ body: () throws -> T) throws -> T {
        deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, limit.milliseconds)) * 1_000_000
        defer { deadline = .max }
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            throw QueryTimeLimit.Exceeded(limit)
        }
    }
}
