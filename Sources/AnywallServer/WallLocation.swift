import Foundation
import PostgresStore

/// Where anywall-server keeps its wall: a SQLite file on this machine, or a PostgreSQL database
/// that several servers may share, with streaming replicas of it for reads.
package enum WallLocation: CustomStringConvertible, Sendable {
    case file(URL)
    case postgres(PostgresAddress, replicas: [PostgresAddress])

    /// A `postgres://` URI's database, else the SQLite file at the path `given`.
    package init(_ given: String) throws(PostgresWallError) {
        self = try PostgresAddress(uri: given).map { .postgres($0, replicas: []) } ?? .file(URL(fileURLWithPath: given))
    }

    /// This location with streaming replicas of it for reads, each a `postgres://` URI.
    package func reading(from replicaURIs: [String]) throws(PostgresWallError) -> WallLocation {
        guard !replicaURIs.isEmpty else { return self }
        guard case .postgres(let primary, let known) = self else {
            throw .badAddress("--database-replica needs a postgres:// --database")
        }
        var replicas = known
        for uri in replicaURIs {
            guard let replica = try PostgresAddress(uri: uri) else { throw .badAddress("--database-replica takes a postgres:// URI, not \(uri)") }
            replicas.append(replica)
        }
        return .postgres(primary, replicas: replicas)
    }

    /// The location as the log names it: the file's path, or the URI without its password.
    package var description: String {
        switch self {
        case .file(let file): return file.path
        case .postgres(let address, _): return address.description
        }
    }
}
