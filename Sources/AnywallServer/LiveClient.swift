import Foundation
import Synchronization
import WallDomain

/// One connected LiveQuery client: who it is once `connect` said so, and what the server has
/// yet to send it.
package final class LiveClient: Sendable {
    /// Parse's `clientId`: a UUID.
    let id = UUID().uuidString.lowercased()
    package let queue: LiveQueue
    /// Where it connects from: the master key counts from `masterKeyAddresses` alone.
    let address: String?
    private let identity = Mutex<Identity?>(nil)
    /// The last seq written to the socket, by subscription (`requestId`).
    private let written = Mutex<[Double: Int64]>([:])

    struct Identity: Sendable {
        let isMaster: Bool
        let sessionToken: String?
        let installationId: String?
    }

    package init(queueLimit: Int, address: String?) {
        queue = LiveQueue(limit: queueLimit)
        self.address = address
    }

    /// What `connect` said; nil before it.
    var connection: Identity? {
        identity.withLock { $0 }
    }

    var installationId: String? { connection?.installationId }

    func connected(as identity: Identity) {
        self.identity.withLock { $0 = identity }
    }

    /// Notes an event as written to the socket.
    func wrote(_ requestId: Double, seq: Int64) {
        written.withLock { $0[requestId] = max($0[requestId] ?? 0, seq) }
    }

    func forget(_ requestId: Double) {
        written.withLock { $0[requestId] = nil }
    }

    /// Where to resume so that no subscription misses an event not yet written: the least seq
    /// written of those given (each subscription's own start when nothing was written for it).
    func resumeSeq(starts: [Double: Int64]) -> Int64 {
        written.withLock { written in
            starts.map { requestId, start in max(start, written[requestId] ?? start) }.min() ?? 0
        }
    }
}
