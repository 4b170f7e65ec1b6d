import Dispatch
import GRDB
import GRDBSQLite
import WallDomain

/// A connection's `QueryTimeLimit` at work. Two checks stop a find past its deadline wherever its
/// time goes: SQLite's progress handler, called every `checkInterval` steps of its engine, which
/// interrupts the statement (a scan, a sort), and the `$regex` function, which looks before each
/// match (one match can take milliseconds, a thousand steps seconds).
final class QueryDeadline: @unchecked Sendable {
    // Unchecked: `deadline` is set by the thread that runs the find and read by the connection's
    // callbacks within the find's calls into GRDB, which run synchronously on behalf of that
    // thread (GRDB serialises access to the connection).
    let limit: QueryTimeLimit
    private var deadline: UInt64 = .max

    /// Steps of SQLite's engine between two looks at the clock: microseconds of work each, so the
    /// clock costs nothing measurable.
    private static let checkInterval: Int32 = 1000

    /// The error the `$regex` function raises past the deadline, and the words `EmbeddedWall` knows it by.
    static let passedMessage = "anywall: the query's time limit has passed"

    init(_ limit: QueryTimeLimit) {
        self.limit = limit
    }

    /// Whether a find is running and its deadline has passed.
    var hasPassed: Bool {
        // No clock outside a find.
        deadline != .max && DispatchTime.now().uptimeNanoseconds > deadline
    }

    /// Installs the handler on `db`'s connection; the handler holds this deadline unretained, and
    /// the wall that owns both keeps it alive.
    func install(on db: Database) {
        sqlite3_progress_handler(db.sqliteConnection, Self.checkInterval, { context in
            Unmanaged<QueryDeadline>.fromOpaque(context!).takeUnretainedValue().hasPassed ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `body` with the deadline set from now; within a `running` already under way, under
    /// that one's deadline (a page and its count are one find).
    func running<T>(_ body: () throws -> T) rethrows -> T {
        guard deadline == .max else { return try body() }
        deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, limit.milliseconds)) * 1_000_000
        defer { deadline = .max }
        return try body()
    }

    /// Whether `error` is SQLite's report of a statement this deadline stopped.
    static func stopped(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_INTERRUPT || error.message == passedMessage
    }
}
