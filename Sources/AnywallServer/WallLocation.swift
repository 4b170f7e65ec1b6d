import Foundation
import PostgresStore

/// Where anywall-server keeps its wall: a SQLite file on this machine, or a PostgreSQL database
/// that several servers may share, with streaming replicas of it for reads.
package enum WallLocation: CustomStringConvertible, Sendable {
    case file(URL)
    case postgres(PostgresAddress, replicas: [PostgresAddress])

    /// The location as the log names it: the file's path, or the URI without its password.
    package var description: String {
        switch self {
        case .file(let file): return file.path
        case .postgres(let address, _): return address.description
        }
    }
}
