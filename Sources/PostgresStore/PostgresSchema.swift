import Logging
import PostgresNIO
import WallStorage

/// The wall's tables in PostgreSQL, as versioned migrations. Each server applies what is missing
/// when it starts, holding an advisory lock, so servers started at once on a new database do not
/// race to create it; `schema_version` says which migrations a database has.
///
/// Posts keep their place as `geography(Point, 4326)` under a GiST index: nearest first by KNN
/// (`<->`) within `ST_DWithin`. Usernames are unique ignoring ASCII case, as SQLite's NOCASE.
enum PostgresSchema {
    /// The migrations in order; a database at version N has had the first N.
    static let migrations: [(name: String, statements: [String])] = [
        ("v1: users, sessions, posts, request ids, config", [
            """
            CREATE TABLE users (
                id bigserial PRIMARY KEY,
                object_id text NOT NULL UNIQUE,
                username text NOT NULL,
                name text,
                password_hash text,                 -- NULL: an imported author who has not set a password
                created_at timestamptz NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX users_username ON users (\(foldedUsername("username")))",
            """
            CREATE TABLE sessions (
                token_digest text PRIMARY KEY,      -- a digest: a copy of the database opens no session
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX sessions_user ON sessions (user_id)",
            """
            CREATE TABLE posts (
                id bigserial PRIMARY KEY,
                object_id text NOT NULL UNIQUE,
                text text NOT NULL,
                location geography(Point, 4326) NOT NULL,
                user_id bigint REFERENCES users (id),
                created_at timestamptz NOT NULL,
                updated_at timestamptz              -- NULL: never edited
            )
            """,
            "CREATE INDEX posts_location ON posts USING gist (location)",
            // Boxes and polygons are on the longitude/latitude plane: their candidates come from this one.
            "CREATE INDEX posts_location_plane ON posts USING gist ((location::geometry))",
            """
            CREATE TABLE requests (
                id text PRIMARY KEY,                -- X-Parse-Request-Id, kept with the write it made
                created_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX requests_created ON requests (created_at)",
            """
            CREATE TABLE config (
                key text PRIMARY KEY,
                value text NOT NULL                 -- JSON, as the SQLite store keeps it
            )
            """,
        ]),
        // readers NULL: everyone reads; writers NULL: the author alone (`PostAccess.storedWriters`),
        // as the SQLite store keeps them. fields: the fields clients added, typed in schema_fields.
        ("v2: ACLs, added fields, the Posts schema, master-key-only config", [
            "ALTER TABLE posts ADD COLUMN readers text, ADD COLUMN writers text, ADD COLUMN fields jsonb",
            "ALTER TABLE config ADD COLUMN master_key_only boolean NOT NULL DEFAULT false",
            """
            CREATE TABLE schema_fields (
                class_name text NOT NULL,
                name text NOT NULL,
                type text NOT NULL,
                PRIMARY KEY (class_name, name)
            )
            """,
        ]),
        // The social layer's post columns, as the SQLite store's v5 has them: a reply's thread
        // post, the counters only the wall moves, and a removal (read by the author alone).
        ("v3: replies, counters and removals on posts", [
            """
            ALTER TABLE posts ADD COLUMN parent_id bigint REFERENCES posts (id) ON DELETE CASCADE,
                ADD COLUMN score integer NOT NULL DEFAULT 0, ADD COLUMN reply_count integer NOT NULL DEFAULT 0,
                ADD COLUMN report_count integer NOT NULL DEFAULT 0, ADD COLUMN removed text,
                ADD COLUMN removed_at timestamptz, ADD COLUMN restored_at timestamptz
            """,
        ]),
        // The social layer's rows, as the SQLite store's v5 has them (`SocialTables`). The
        // moderators are the users of the role `moderators`. The counters move in the transaction
        // of the row that moves them (`PostgresSocial`).
        ("v4: replies, votes, reports, moderators", SocialTables.creation(on: .postgres) + [
            // Deleting a reply deletes its notice (ON DELETE CASCADE): found by this, not by reading every row.
            "CREATE INDEX activity_reply ON activity (reply_id) WHERE reply_id IS NOT NULL",
            // A thread's replies, oldest first; and what deleting a post finds its replies by (ON DELETE CASCADE).
            "CREATE INDEX posts_thread ON posts (parent_id, created_at) WHERE parent_id IS NOT NULL",
        ]),
        // As the SQLite store's v6 has it: a role made before (by a test or an owner's grant) has
        // Parse's usual ACL for it, everyone reads; `activity` gains the types `removed` and
        // `restored`, which tell an author (to_user_id) what became of their post, and the removals
        // and restores made before are told from the posts' own times.
        ("v5: roles keep their ACL; removals are activity", [
            #"ALTER TABLE roles ADD COLUMN acl text NOT NULL DEFAULT '{"*":{"read":true}}', ADD COLUMN updated_at timestamptz"#,
            """
            INSERT INTO activity (object_id, type, to_user_id, post_id, created_at)
                SELECT \(backfilledObjectId), 'removed', user_id, id, removed_at FROM posts WHERE removed_at IS NOT NULL
            """,
            """
            INSERT INTO activity (object_id, type, to_user_id, post_id, created_at)
                SELECT \(backfilledObjectId), 'restored', user_id, id, restored_at FROM posts WHERE restored_at IS NOT NULL
            """,
        ]),
        // The change log LiveQuery reads, as the SQLite store's v7 has it: every write to a post
        // leaves a row in its own transaction, with the post as it was before (none for a
        // create). Writers to posts take `changeLock` until they commit, so that `seq` follows
        // the order of the commits and a reader that has seen seq N has seen every change before
        // it. Each change is announced on `changeChannel` with its seq; the servers read the
        // rows themselves. `change_horizon` is the last seq pruned.
        ("v6: the change log LiveQuery reads", [
            """
            CREATE TABLE post_changes (
                seq bigserial PRIMARY KEY,
                change text NOT NULL,               -- create | update | delete
                at timestamptz NOT NULL DEFAULT now(),
                object_id text NOT NULL,
                \(changedPostColumns.map { "\($0) \($1)" }.joined(separator: ",\n"))
            )
            """,
            "CREATE INDEX post_changes_object ON post_changes (object_id, seq)",
            "CREATE INDEX post_changes_at ON post_changes (at)",
            "CREATE TABLE change_horizon (pruned_through bigint NOT NULL)",
            "INSERT INTO change_horizon VALUES (0)",
            logPostChange(creating: true, skippingCopies: false),
            "CREATE TRIGGER posts_changed AFTER INSERT OR UPDATE OR DELETE ON posts FOR EACH ROW EXECUTE FUNCTION log_post_change()",
        ]),
        // As the SQLite store's v8: a row of `activity` written, changed or deleted leaves a row in
        // the log too, by its objectId alone (LiveQuery reads the row itself, as a find would).
        ("v7: Activity in the change log", [
            "ALTER TABLE post_changes ADD COLUMN class_name text NOT NULL DEFAULT 'Posts'",
            """
            CREATE FUNCTION log_activity_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(\(changeLock));
                INSERT INTO post_changes (change, object_id, class_name)
                    VALUES (CASE TG_OP WHEN 'INSERT' THEN 'create' ELSE lower(TG_OP) END, CASE TG_OP WHEN 'DELETE' THEN OLD.object_id ELSE NEW.object_id END,
                            'Activity');
                PERFORM pg_notify('\(changeChannel)', currval(pg_get_serial_sequence('post_changes', 'seq'))::text);
                RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER activity_changed AFTER INSERT OR UPDATE OR DELETE ON activity FOR EACH ROW EXECUTE FUNCTION log_activity_change()",
        ]),
        // As the SQLite store's v10 (`IdentityTable`).
        ("v8: authData", IdentityTable.creation(on: .postgres)),
        // `anywall-server copy`'s batches set `copyingSetting`: copied posts are not changes anyone
        // saw happen, and ten million rows in the log took the servers minutes to prune. Each batch
        // moves the horizon instead (`PostgresWall.insert(posts:)`), as the SQLite store's load in bulk marks a gap.
        ("v9: a copy's posts leave no change rows", [logPostChange(creating: false, skippingCopies: true)]),
    ]

    /// The session setting `anywall-server copy` turns on while it adds posts.
    static let copyingSetting = "anywall.copying"

    /// The change log's trigger function on posts (v6), made or replaced; `skippingCopies` leaves
    /// out the rows of a session with `copyingSetting` on (v9).
    private static func logPostChange(creating: Bool, skippingCopies: Bool) -> String {
        """
        \(creating ? "CREATE" : "CREATE OR REPLACE") FUNCTION log_post_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(skippingCopies ? "IF current_setting('\(copyingSetting)', true) = 'on' THEN RETURN NULL; END IF;" : "")
            PERFORM pg_advisory_xact_lock(\(changeLock));
            IF TG_OP = 'INSERT' THEN
                INSERT INTO post_changes (change, object_id) VALUES ('create', NEW.object_id);
            ELSE
                INSERT INTO post_changes (change, object_id, \(changedPostColumns.map(\.name).joined(separator: ", ")))
                    VALUES (lower(TG_OP), OLD.object_id, \(changedPostColumns.map { "OLD.\($0.name)" }.joined(separator: ", ")));
            END IF;
            PERFORM pg_notify('\(changeChannel)', currval(pg_get_serial_sequence('post_changes', 'seq'))::text);
            RETURN NULL;
        END $$
        """
    }

    /// The columns of `posts` a change row keeps (as v3 left them), with their types. Migration v6
    /// creates the change log from them: a new post column needs a migration that adds it here too.
    private static let changedPostColumns: [(name: String, type: String)] = [
        ("id", "bigint"), ("text", "text"), ("location", "geography(Point, 4326)"), ("user_id", "bigint"), ("created_at", "timestamptz"),
        ("updated_at", "timestamptz"), ("readers", "text"), ("writers", "text"), ("fields", "jsonb"), ("parent_id", "bigint"),
        ("score", "integer"), ("reply_count", "integer"), ("report_count", "integer"), ("removed", "text"), ("removed_at", "timestamptz"),
        ("restored_at", "timestamptz"),
    ]

    /// Any number, the same in every server: the lock a writer to posts holds until it commits.
    static let changeLock: Int64 = 0x616e_7977_6c6f_67

    /// The channel each change to a post is announced on.
    static let changeChannel = "anywall_changes"

    /// A new row's objectId made by the database, ten characters as `RandomIdentifier` makes them:
    /// from a random UUID (PostgreSQL 13 and later make one without an extension).
    private static let backfilledObjectId = "substr(replace(gen_random_uuid()::text, '-', ''), 1, 10)"

    /// Any number, the same in every server: the lock that serialises migrations.
    private static let migrationLock: Int64 = 0x616e_7977_616c_6c

    static let upperCase = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    static let lowerCase = "abcdefghijklmnopqrstuvwxyz"

    /// `column` folded as SQLite's NOCASE folds: ASCII letters only.
    static func foldedUsername(_ column: String) -> String {
        "translate(\(column), '\(upperCase)', '\(lowerCase)')"
    }

    /// Checks PostGIS is there and brings the schema up to date.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withConnection { connection in
            let postgis = try await connection.query("SELECT 1 FROM pg_extension WHERE extname = 'postgis'", logger: logger)
            var hasPostGIS = false
            for try await _ in postgis { hasPostGIS = true }
            guard hasPostGIS else {
                throw PostgresWallError.noPostGIS("the database has no PostGIS: as its owner, run CREATE EXTENSION postgis")
            }
            // A migration (an index built over a large wall) is not a client's query: the server's
            // time limit on statements does not apply to it; the caller's deadline does.
            _ = try await connection.query("SET statement_timeout = 0", logger: logger)
            _ = try await connection.query("SELECT pg_advisory_lock(\(migrationLock))", logger: logger)
            do {
                try await apply(connection, logger: logger)
                _ = try await connection.query("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
                _ = try await connection.query("RESET statement_timeout", logger: logger)
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
                _ = try? await connection.query("RESET statement_timeout", logger: logger)
                throw error
            }
        }
    }

    private static func apply(_ connection: PostgresConnection, logger: Logger) async throws {
        _ = try await connection.query("""
            CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        var applied = 0
        for try await version in try await connection.query("SELECT coalesce(max(version), 0) FROM schema_version", logger: logger).decode(Int.self) {
            applied = version
        }
        for (index, migration) in migrations.enumerated() where index >= applied {
            let version = index + 1
            try await connection.withTransaction(logger: logger) { connection in
                for statement in migration.statements {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                _ = try await connection.query("INSERT INTO schema_version (version, name) VALUES (\(version), \(migration.name))", logger: logger)
            }
        }
    }
}
