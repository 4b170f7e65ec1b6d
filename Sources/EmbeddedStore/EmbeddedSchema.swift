import AnywallSupport
import GRDB
import WallDomain
import WallStorage

/// The embedded wall's tables, as versioned migrations.
///
/// Posts are indexed by an R*Tree over their points (only the id is kept there; the exact
/// coordinates stay in `post`), kept in step with `post` by triggers.
enum EmbeddedSchema {
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, sessions, posts, config") { db in
            try db.execute(sql: """
                CREATE TABLE user (
                    id INTEGER PRIMARY KEY,
                    objectId TEXT NOT NULL UNIQUE,
                    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    name TEXT,
                    passwordHash TEXT,          -- NULL: imported author who has not set a password
                    createdAt INTEGER NOT NULL  -- milliseconds since 1970
                );
                CREATE TABLE session (
                    tokenDigest TEXT PRIMARY KEY,
                    userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    createdAt INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE post (
                    id INTEGER PRIMARY KEY,
                    objectId TEXT NOT NULL UNIQUE,
                    text TEXT NOT NULL,
                    latitude REAL NOT NULL,
                    longitude REAL NOT NULL,
                    userId INTEGER REFERENCES user(id),
                    createdAt INTEGER NOT NULL
                );
                CREATE VIRTUAL TABLE postLocation USING rtree(id, minLatitude, maxLatitude, minLongitude, maxLongitude);
                CREATE TRIGGER postLocationInsert AFTER INSERT ON post BEGIN
                    INSERT INTO postLocation VALUES (new.id, new.latitude, new.latitude, new.longitude, new.longitude);
                END;
                CREATE TRIGGER postLocationDelete AFTER DELETE ON post BEGIN
                    DELETE FROM postLocation WHERE id = old.id;
                END;
                CREATE TABLE config (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL         -- JSON
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v2: edited posts, request ids") { db in
            // updatedAt NULL: never edited (it reads as createdAt). A request id is kept with the
            // write it made, in the same transaction, so a retried request is refused exactly when
            // the first one took effect.
            try db.execute(sql: """
                ALTER TABLE post ADD COLUMN updatedAt INTEGER;
                CREATE TRIGGER postLocationUpdate AFTER UPDATE OF latitude, longitude ON post BEGIN
                    UPDATE postLocation SET minLatitude = new.latitude, maxLatitude = new.latitude,
                        minLongitude = new.longitude, maxLongitude = new.longitude WHERE id = new.id;
                END;
                CREATE TABLE request (
                    id TEXT PRIMARY KEY,
                    createdAt INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v3: ACLs, added fields, the Posts schema, master-key-only config") { db in
            // readers NULL: everyone reads; writers NULL: the author alone (see
            // `PostAccess.storedWriters`). fields: a JSON object of the fields clients added, NULL
            // for none; their types are in `schemaField`. A post everyone reads stays in
            // `postLocation`; one with readers goes to `restrictedPostLocation`, which keeps the
            // readers beside the point: the nearest search of most readers never leaves the first
            // (an auxiliary column costs a lookup per row scanned), and skips what it may not see.
            try db.execute(sql: """
                ALTER TABLE post ADD COLUMN readers TEXT;
                ALTER TABLE post ADD COLUMN writers TEXT;
                ALTER TABLE post ADD COLUMN fields TEXT;
                ALTER TABLE config ADD COLUMN masterKeyOnly INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE schemaField (
                    className TEXT NOT NULL,
                    name TEXT NOT NULL,
                    type TEXT NOT NULL,
                    PRIMARY KEY (className, name)
                ) WITHOUT ROWID;
                CREATE VIRTUAL TABLE restrictedPostLocation USING rtree(id, minLatitude, maxLatitude, minLongitude, maxLongitude, +readers);
                DROP TRIGGER postLocationInsert;
                DROP TRIGGER postLocationDelete;
                DROP TRIGGER postLocationUpdate;
                CREATE TRIGGER postLocationInsert AFTER INSERT ON post BEGIN
                    INSERT INTO postLocation SELECT new.id, new.latitude, new.latitude, new.longitude, new.longitude WHERE new.readers IS NULL;
                    INSERT INTO restrictedPostLocation SELECT new.id, new.latitude, new.latitude, new.longitude, new.longitude, new.readers
                        WHERE new.readers IS NOT NULL;
                END;
                CREATE TRIGGER postLocationDelete AFTER DELETE ON post BEGIN
                    DELETE FROM postLocation WHERE id = old.id;
                    DELETE FROM restrictedPostLocation WHERE id = old.id;
                END;
                CREATE TRIGGER postLocationUpdate AFTER UPDATE OF latitude, longitude, readers ON post BEGIN
                    DELETE FROM postLocation WHERE id = old.id;
                    DELETE FROM restrictedPostLocation WHERE id = old.id;
                    INSERT INTO postLocation SELECT new.id, new.latitude, new.latitude, new.longitude, new.longitude WHERE new.readers IS NULL;
                    INSERT INTO restrictedPostLocation SELECT new.id, new.latitude, new.latitude, new.longitude, new.longitude, new.readers
                        WHERE new.readers IS NOT NULL;
                END;
                """)
        }
        migrator.registerMigration("v4: authorsVersion") { db in
            // `value` is raised whenever an account's public fields change or it goes, so that a
            // long-lived process knows the authors it keeps (`AuthorCache`) are still true; `wall`
            // tells this wall from another whose file was restored over it. A new account changes
            // nothing kept.
            try db.execute(sql: """
                CREATE TABLE authorsVersion (wall TEXT NOT NULL, value INTEGER NOT NULL);
                INSERT INTO authorsVersion VALUES (lower(hex(randomblob(16))), 0);
                CREATE TRIGGER authorChanged AFTER UPDATE OF id, objectId, username, name, createdAt ON user BEGIN
                    UPDATE authorsVersion SET value = value + 1;
                END;
                CREATE TRIGGER authorDeleted AFTER DELETE ON user BEGIN
                    UPDATE authorsVersion SET value = value + 1;
                END;
                """)
        }
        migrator.registerMigration("v5: replies, votes, reports, moderators") { db in
            // Replies are posts with a parent (their thread's post), one level deep; `nearby` never
            // lists them, so they stay out of the location indexes. A removed post stays in the
            // index its author reads (`restrictedPostLocation`, with the author as its one reader),
            // so that the nearest search counts only posts its reader may see. The counters move in
            // the transaction of the row that moves them (`EmbeddedSocial`). The tables: `SocialTables`.
            try db.execute(sql: """
                ALTER TABLE post ADD COLUMN parentId INTEGER REFERENCES post(id) ON DELETE CASCADE;
                ALTER TABLE post ADD COLUMN score INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE post ADD COLUMN replyCount INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE post ADD COLUMN reportCount INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE post ADD COLUMN removed TEXT;            -- votes | reports | moderator
                ALTER TABLE post ADD COLUMN removedAt INTEGER;
                ALTER TABLE post ADD COLUMN restoredAt INTEGER;      -- set: community removal no longer applies
                CREATE INDEX postThread ON post(parentId, createdAt) WHERE parentId IS NOT NULL;
                CREATE INDEX postAuthor ON post(userId);
                \(SocialTables.creation(on: .sqlite).joined(separator: ";\n"));
                DROP TRIGGER postLocationInsert;
                DROP TRIGGER postLocationUpdate;
                \(postLocationInsertTrigger);
                CREATE TRIGGER postLocationUpdate AFTER UPDATE OF latitude, longitude, readers, removed ON post WHEN new.parentId IS NULL BEGIN
                    DELETE FROM postLocation WHERE id = old.id;
                    DELETE FROM restrictedPostLocation WHERE id = old.id;
                    INSERT INTO postLocation SELECT new.id, new.latitude, new.latitude, new.longitude, new.longitude
                        WHERE new.readers IS NULL AND new.removed IS NULL;
                    INSERT INTO restrictedPostLocation SELECT new.id, new.latitude, new.latitude, new.longitude, new.longitude,
                        \(indexedReaders)
                        WHERE new.readers IS NOT NULL OR new.removed IS NOT NULL;
                END;
                """)
        }
        migrator.registerMigration("v6: roles keep their ACL; removals are activity") { db in
            // A role made by `moderate grant` before has Parse's usual ACL for it: everyone reads.
            // `activity` gains the types `removed` and `restored`, which tell an author (toUserId)
            // what became of their post, as the feed reads them on every backend; the removals
            // and restores made before are told from the posts' own times.
            try db.execute(sql: """
                ALTER TABLE role ADD COLUMN acl TEXT NOT NULL DEFAULT '{"*":{"read":true}}';
                ALTER TABLE role ADD COLUMN updatedAt INTEGER;
                INSERT INTO activity (objectId, type, toUserId, postId, createdAt)
                    SELECT lower(hex(randomblob(5))), 'removed', userId, id, removedAt FROM post WHERE removedAt IS NOT NULL;
                INSERT INTO activity (objectId, type, toUserId, postId, createdAt)
                    SELECT lower(hex(randomblob(5))), 'restored', userId, id, restoredAt FROM post WHERE restoredAt IS NOT NULL;
                """)
        }
        migrator.registerMigration("v7: the change log LiveQuery reads") { db in
            // Every write to a post leaves a row here in its own transaction, numbered in commit
            // order (`seq`, never reused): what a LiveQuery subscriber missed is replayed from it,
            // on any server that reads the file. A row keeps the post as it was before the change
            // (none for a create); the state after it is the next row's, or the post itself.
            // `changeHorizon` is the last seq pruned: a replay from before it cannot be whole.
            try db.execute(sql: """
                CREATE TABLE postChange (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    change TEXT NOT NULL,                            -- create | update | delete
                    at INTEGER NOT NULL,
                    objectId TEXT NOT NULL,
                    \(changedPostColumns.map { "\($0) \($1)" }.joined(separator: ",\n"))
                );
                CREATE INDEX postChangeObject ON postChange(objectId, seq);
                CREATE INDEX postChangeAt ON postChange(at);
                CREATE TABLE changeHorizon (prunedThrough INTEGER NOT NULL);
                INSERT INTO changeHorizon VALUES (0);
                \(postChangeCreateTrigger);
                CREATE TRIGGER postChangeUpdate AFTER UPDATE ON post BEGIN
                    INSERT INTO postChange (change, at, objectId, \(changedPostColumns.map(\.name).joined(separator: ", ")))
                        VALUES ('update', \(nowMillis), old.objectId, \(changedPostColumns.map { "old.\($0.name)" }.joined(separator: ", ")));
                END;
                CREATE TRIGGER postChangeDelete AFTER DELETE ON post BEGIN
                    INSERT INTO postChange (change, at, objectId, \(changedPostColumns.map(\.name).joined(separator: ", ")))
                        VALUES ('delete', \(nowMillis), old.objectId, \(changedPostColumns.map { "old.\($0.name)" }.joined(separator: ", ")));
                END;
                """)
        }
        migrator.registerMigration("v8: Activity in the change log") { db in
            // A row of `activity` written, changed or deleted leaves a row in the log too, by its
            // objectId alone: LiveQuery reads the row itself, as a find would.
            try db.execute(sql: """
                ALTER TABLE postChange ADD COLUMN className TEXT NOT NULL DEFAULT 'Posts';
                CREATE TRIGGER activityChangeCreate AFTER INSERT ON activity BEGIN
                    INSERT INTO postChange (change, at, objectId, className) VALUES ('create', \(nowMillis), new.objectId, 'Activity');
                END;
                CREATE TRIGGER activityChangeUpdate AFTER UPDATE ON activity BEGIN
                    INSERT INTO postChange (change, at, objectId, className) VALUES ('update', \(nowMillis), old.objectId, 'Activity');
                END;
                CREATE TRIGGER activityChangeDelete AFTER DELETE ON activity BEGIN
                    INSERT INTO postChange (change, at, objectId, className) VALUES ('delete', \(nowMillis), old.objectId, 'Activity');
                END;
                """)
        }
        migrator.registerMigration("v9: replies found by place") { db in
            // Replies stay out of the R*Trees, which the nearest search reads as thread posts alone;
            // a find by place reads them from this index instead (`EmbeddedRecords.candidates`).
            try db.execute(sql: "CREATE INDEX replyPlace ON post(latitude, longitude) WHERE parentId IS NOT NULL")
        }
        migrator.registerMigration("v10: authData") { db in
            try db.execute(sql: IdentityTable.creation(on: .sqlite).joined(separator: ";\n"))
        }
        return migrator
    }()

    /// The columns of `post` a change row keeps (as v5 left them), with their types. Migration v7
    /// creates the change log from them: a new post column needs a migration that adds it here too.
    private static let changedPostColumns: [(name: String, type: String)] = [
        ("id", "INTEGER"), ("text", "TEXT"), ("latitude", "REAL"), ("longitude", "REAL"), ("userId", "INTEGER"), ("createdAt", "INTEGER"),
        ("updatedAt", "INTEGER"), ("readers", "TEXT"), ("writers", "TEXT"), ("fields", "TEXT"), ("parentId", "INTEGER"), ("score", "INTEGER"),
        ("replyCount", "INTEGER"), ("reportCount", "INTEGER"), ("removed", "TEXT"), ("removedAt", "INTEGER"), ("restoredAt", "INTEGER"),
    ]

    /// Now in milliseconds since 1970, as SQLite 3.40 can tell it.
    private static let nowMillis = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

    /// Logs each new post. A load in bulk drops it and marks the whole load as one gap instead
    /// (`EmbeddedWall.loadPosts`). Migration v7 creates it: a change needs a migration of its own.
    static let postChangeCreateTrigger = """
        CREATE TRIGGER postChangeCreate AFTER INSERT ON post BEGIN
            INSERT INTO postChange (change, at, objectId) VALUES ('create', \(nowMillis), new.objectId);
        END
        """

    /// Who the nearest search lets read a post: its readers, or its author alone once removed.
    private static let indexedReaders = "CASE WHEN new.removed IS NULL THEN new.readers ELSE ' ' || (SELECT objectId FROM user WHERE id = new.userId) || ' ' END"

    /// Puts each new post (not a reply) in its location index: public posts in `postLocation`,
    /// posts with readers and removed posts in `restrictedPostLocation`. A load in bulk drops it and
    /// builds the index at the end. Migration v5 creates it: a change to it needs a migration of
    /// its own, not an edit here.
    static let postLocationInsertTrigger = """
        CREATE TRIGGER postLocationInsert AFTER INSERT ON post WHEN new.parentId IS NULL BEGIN
            INSERT INTO postLocation SELECT new.id, new.latitude, new.latitude, new.longitude, new.longitude
                WHERE new.readers IS NULL AND new.removed IS NULL;
            INSERT INTO restrictedPostLocation SELECT new.id, new.latitude, new.latitude, new.longitude, new.longitude, \(indexedReaders)
                WHERE new.readers IS NOT NULL OR new.removed IS NOT NULL;
        END
        """
}
