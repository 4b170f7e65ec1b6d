/// The tables of the social layer as both stores create them, in each engine's words: `activity`,
/// Anypic's one table (votes with a value of 1 or -1, reports with a reason and a note, reply
/// notices naming the reply; one vote and one report per account and post, and a deleted
/// account's rows kept, so its votes still count), and the roles with their users. SQLite's
/// migration v5 and PostgreSQL's v4 run these statements: a change to them needs a migration of
/// its own, not an edit here.
public enum SocialTables {
    /// The statements that create the tables and their indexes on `engine`.
    public static func creation(on engine: SQLEngine) -> [String] {
        let columns = engine.columns, name = engine.columns.naming.spell
        let (key, reference, time) = engine == .sqlite ? ("INTEGER PRIMARY KEY", "INTEGER", "INTEGER") : ("bigserial PRIMARY KEY", "bigint", "timestamptz")
        let fromUser = name("from", "user", "id"), toUser = name("to", "user", "id"), post = name("post", "id")
        return [
            """
            CREATE TABLE activity (
                id \(key),
                \(columns.objectId) text NOT NULL UNIQUE,
                type text NOT NULL,
                \(fromUser) \(reference) REFERENCES \(columns.users) (id) ON DELETE SET NULL,
                \(toUser) \(reference) REFERENCES \(columns.users) (id) ON DELETE SET NULL,
                \(post) \(reference) NOT NULL REFERENCES \(columns.posts) (id) ON DELETE CASCADE,
                \(name("reply", "id")) \(reference) REFERENCES \(columns.posts) (id) ON DELETE CASCADE,
                value integer,
                reason text,
                note text,
                \(columns.createdAt) \(time) NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX \(name("activity", "one", "per", "account")) ON activity (\(post), type, \(fromUser)) WHERE type <> 'reply'",
            "CREATE INDEX \(name("activity", "to", "user")) ON activity (\(toUser), \(columns.createdAt))",
            "CREATE INDEX \(name("activity", "post")) ON activity (\(post), type)",
            """
            CREATE TABLE \(columns.roles) (
                id \(key),
                \(columns.objectId) text NOT NULL UNIQUE,
                name text NOT NULL UNIQUE,
                \(columns.createdAt) \(time) NOT NULL
            )
            """,
            """
            CREATE TABLE \(columns.roleMembers) (
                \(columns.memberRole) \(reference) NOT NULL REFERENCES \(columns.roles) (id) ON DELETE CASCADE,
                \(columns.author) \(reference) NOT NULL REFERENCES \(columns.users) (id) ON DELETE CASCADE,
                PRIMARY KEY (\(columns.memberRole), \(columns.author))
            )\(engine == .sqlite ? " WITHOUT ROWID" : "")
            """,
        ]
    }
}
