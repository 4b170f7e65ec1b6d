import Foundation

/// Where a wall's PostgreSQL database is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (`postgresql://` too), as Parse Server's `PARSE_SERVER_DATABASE_URI` writes it. A password left
/// out of the URI is read from `PGPASSWORD`, so that it need not stand on a command line.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let username: String
    public let password: String?
    public let database: String

    /// Reads `uri`; nil when it is not a PostgreSQL URI (a file path, say). A URI that names
    /// PostgreSQL but is malformed throws `PostgresWallError.badAddress` with the reason.
    public init?(uri: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresWallError) {
        guard uri.hasPrefix("postgres://") || uri.hasPrefix("postgresql://") else { return nil }
        guard let parts = URLComponents(string: uri), let host = parts.host, !host.isEmpty else {
            throw .badAddress("not a PostgreSQL URI: expected postgres://USER@HOST[:PORT]/DATABASE")
        }
        guard let username = parts.user, !username.isEmpty else {
            throw .badAddress("the PostgreSQL URI names no user: postgres://USER@HOST/DATABASE")
        }
        let database = String(parts.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw .badAddress("the PostgreSQL URI names no database: postgres://USER@HOST/DATABASE")
        }
        if let query = parts.query, !query.isEmpty {
            throw .badAddress("anywall-server takes no options in the PostgreSQL URI (\(query)): TLS is for a proxy or a socket tunnel")
        }
        self.host = host
        port = parts.port ?? 5432
        guard (1...65535).contains(port) else { throw .badAddress("the PostgreSQL URI's port must be from 1 to 65535") }
        self.username = username.removingPercentEncoding ?? username
        password = parts.password.map { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"]
        self.database = database.removingPercentEncoding ?? database
    }

    /// The address without its password: what logs and errors show.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }
}
