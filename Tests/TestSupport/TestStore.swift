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
}

/// The one PostgreSQL cluster of a test process, with a template database that has PostGIS, so a
/// new wall's database is one quick `CREATE DATABASE`.
private enum SharedCluster {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cluster: PostgresCluster?
    nonisolated(unsafe) private static var databases: [String: String] = [:]

    static func database(for file: URL) throws -> String {
        try lock.withLock {
            let cluster = try started()
            if let uri = databases[file.path] { return uri }
            let name = "wall_\(databases.count + 1)"
            try cluster.sql("CREATE DATABASE \(name) TEMPLATE \(PostgresCluster.database)")
            let uri = "postgres://postgres@127.0.0.1:\(cluster.port)/\(name)"
            databases[file.path] = uri
            return uri
        }
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
