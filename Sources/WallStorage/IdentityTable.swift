/// The table of each way an account logs in besides its password (Parse's `_User.authData`), one
/// row a provider, as both stores create it in each engine's words: the provider's id, and its
/// fields kept besides the id as JSON text. The unique index is what keeps two sign-ups racing
/// with one identity from both winning: the second insert fails inside its transaction. SQLite's
/// migration v10 and PostgreSQL's v8 run these statements: a change to them needs a migration of
/// its own, not an edit here.
public enum IdentityTable {
    /// The statements that create the table and its index on `engine`.
    public static func creation(on engine: SQLEngine) -> [String] {
        let columns = engine.columns, name = columns.naming.spell
        let table = name("auth", "data"), providerId = name("provider", "id")
        return [
            """
            CREATE TABLE \(table) (
                \(columns.author) \(engine == .sqlite ? "INTEGER" : "bigint") NOT NULL REFERENCES \(columns.users) (id) ON DELETE CASCADE,
                provider text NOT NULL,
                \(providerId) text NOT NULL,
                fields text NOT NULL,
                PRIMARY KEY (\(columns.author), provider)
            )\(engine == .sqlite ? " WITHOUT ROWID" : "")
            """,
            "CREATE UNIQUE INDEX \(name(table, "identity")) ON \(table) (provider, \(providerId))",
        ]
    }
}
