import PostgresStore

/// Why anywall-server could not start, with the exit status a service manager sees.
package enum ServerFailure: Error, CustomStringConvertible {
    /// The keys or options are missing or wrong (EX_CONFIG).
    case configuration(String)
    /// The wall file cannot be opened, or its database reached (EX_UNAVAILABLE).
    case wall(String)
    /// The database refused the user, the password or the database name (EX_NOPERM).
    case databaseRefused(String)
    /// The database lacks PostGIS.
    case noPostGIS(String)
    /// The address cannot be bound (EX_OSERR... in use, not allowed).
    case listen(String)

    /// Why a PostgreSQL wall could not be opened, with its status.
    package init(_ error: PostgresWallError) {
        switch error {
        case .badAddress(let why): self = .configuration(why)
        case .unreachable(let why): self = .wall(why)
        case .refused(let why): self = .databaseRefused(why)
        case .noPostGIS(let why): self = .noPostGIS(why)
        }
    }

    package var description: String {
        switch self {
        case .configuration(let m), .wall(let m), .databaseRefused(let m), .noPostGIS(let m), .listen(let m): return m
        }
    }

    /// The process's exit status (sysexits).
    package var exitStatus: Int32 {
        switch self {
        case .configuration: return 78
        case .wall: return 69
        case .listen: return 71
        case .noPostGIS: return 72
        case .databaseRefused: return 77
        }
    }
}
