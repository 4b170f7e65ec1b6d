import AnywallSupport
import Dispatch
import EmbeddedStore
import ParseWire
import WallDomain

/// The embedded wall shared by every request. Its calls block (SQLite, scrypt), so they run on
/// Dispatch's threads, never on Swift concurrency's few cooperative ones, which must stay free to
/// accept and answer other requests.
package final class SharedWall: @unchecked Sendable {
    // Unchecked: EmbeddedWall holds only immutable, thread-safe parts (a GRDB DatabaseQueue,
    // which serialises every access, the hasher and the clock).
    private let wall: EmbeddedWall
    private let queue = DispatchQueue(label: "anywall-server.wall", attributes: .concurrent)

    package init(_ wall: EmbeddedWall) {
        self.wall = wall
    }

    /// Runs `body` with the wall on a Dispatch thread.
    package func run<T: Sendable>(_ body: @escaping @Sendable (EmbeddedWall) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(self.wall) }) }
        }
    }
}
