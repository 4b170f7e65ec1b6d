/// Why a PostgreSQL wall cannot be served, found when the server starts: each has its own
/// exit status in anywall-server. Once running, a lost database is `AnywallError.backendUnreachable`.
public enum PostgresWallError: Error, Equatable, Sendable {
    /// The URI is not one anywall-server can use.
    case badAddress(String)
    /// Nothing answers at the address, or it is not a PostgreSQL server.
    case unreachable(String)
    /// The server refused the user, the password or the database.
    case refused(String)
    /// The database lacks the PostGIS extension.
    case noPostGIS(String)

    /// The reason, in one line.
    public var reason: String {
        switch self {
        case .badAddress(let why), .unreachable(let why), .refused(let why), .noPostGIS(let why): return why
        }
    }
}
