import EmbeddedStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The store the tests run anywall-server on: the SQLite file by default, PostgreSQL with PostGIS
/// when `ANYWALL_TEST_STORE=postgres` (scripts/test runs the server's suite both ways). On
/// PostgreSQL every wall file a test names becomes a database of its own in one cluster that
/// the test process starts at its first use and stops when it exits.
package enum TestStore: String, Sendable {
    case sqlite
    case postgres

    /// The store this run of the tests uses.
    package static let current = TestStore(rawValue: ProcessInfo.processInfo.environment["ANYWALL_TEST_STORE"] ?? "sqlite") ?? .sqlite

    /// The options that point anywall-server at the wall a test calls `file`.
    package static func serverArguments(for file: URL) throws -> [String] {
        switch current {
        case .sqlite: return ["--store", file.path]
        case .postgres: return ["--database", try SharedCluster.database(for: file)]
        }
    }

    /// Makes the user `username` of the wall a test calls `file` (its server started, so that
    /// its schema is there) a moderator: a user of the role `moderators`, as a wall's owner makes
    /// one. Fails when the wall has no such user.
    package static func grantModerator(_ username: String, on file: URL) throws {
        switch current {
        case .sqlite:
            try EmbeddedWall(file: file).setModerator(username, true, masterKey: nil)
        case .postgres:
            // Usernames in tests are letters and digits; a quote would still be doubled.
            let name = username.replacingOccurrences(of: "'", with: "''")
            let granted = try SharedCluster.sql("""
                INSERT INTO roles (object_id, name, created_at) VALUES (substr(md5(random()::text), 1, 10), 'moderators', now())
                    ON CONFLICT (name) DO NOTHING;
                INSERT INTO role_users (role_id, user_id) SELECT roles.id, users.id FROM roles, users
                    WHERE roles.name = 'moderators' AND users.username = '\(name)' ON CONFLICT DO NOTHING;
                SELECT count(*) FROM role_users JOIN users ON users.id = role_users.user_id WHERE users.username = '\(name)';
                """, on: file)
            guard granted.split(separator: "\n").last == "1" else {
                throw HelperFailure(description: "no user \(username) to make a moderator of: \(granted)")
            }
        }
    }
}

/// The one PostgreSQL cluster of a test process, with a template database that has PostGIS, so a
/// new wall's database is one quick `CREATE DATABASE`.
private enum SharedCluster {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cluster: PostgresCluster?
    /// The database of each wall file a test named.
    nonisolated(unsafe) private static var databases: [String: String] = [:]

    /// The URI of the database that stands for `file`, made at the first call.
    static func database(for file: URL) throws -> String {
        try lock.withLock {
            let cluster = try started()
            return "postgres://postgres@127.0.0.1:\(cluster.port)/\(try name(of: file, in: cluster))"
        }
    }

    /// Runs `statements` with psql in the database that stands for `file`; their output.
    static func sql(_ statements: String, on file: URL) throws -> String {
        let (cluster, database) = try lock.withLock {
            let cluster = try started()
            return (cluster, try name(of: file, in: cluster))
        }
        return try cluster.sql(statements, database: database)
    }

    /// The name of the database that stands for `file`, made when it is new; under `lock`.
    private static func name(of file: URL, in cluster: PostgresCluster) throws -> String {
        if let name = databases[file.path] { return name }
        let name = "wall_\(databases.count + 1)"
        try cluster.sql("CREATE DATABASE \(name) TEMPLATE \(PostgresCluster.database)")
        databases[file.path] = name
        return name
    }

    private static func started() throws -> PostgresCluster {
        if let cluster { return cluster }
        let made = try PostgresCluster()
        // A template may not be copied while connections to it are open: psql's is closed by now.
        cluster = made
        atexit { SharedCluster.stopAtExit() }
        return made
    }

    private static func stopAtExit() {
        cluster?.stop()
    }
}
