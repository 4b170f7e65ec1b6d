import GRDB
import GRDBSQLite

/// Steps prepared statements through SQLite's C API, where a loop runs one per post: GRDB's
/// `Row`s and `StatementArguments` box every value, which costs more than SQLite's own work on
/// a row. GRDB still prepares and caches the statements; the caller binds with `sqlite3_bind_*`.
extension Database {
    /// Steps a prepared, bound statement to its end, handing each row to `body`.
    func forEachRow(of statement: Statement, _ body: (SQLiteStatement) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw stepFailure(code) }
            try body(handle)
        }
    }

    /// Runs a prepared, bound statement that returns no rows (an insert).
    func run(_ statement: Statement) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw stepFailure(code) }
    }

    private func stepFailure(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqliteConnection)))
    }
}

/// The text in `column` of the row `statement` is on, or nil for NULL.
func columnText(_ statement: SQLiteStatement, _ column: Int32) -> String? {
    sqlite3_column_text(statement, column).map { String(cString: $0) }
}

/// SQLite copies a value bound with this before `sqlite3_bind_*` returns (C's `SQLITE_TRANSIENT`,
/// a macro Swift does not import).
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
