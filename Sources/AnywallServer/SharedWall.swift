import AnywallSupport
import Dispatch
import EmbeddedStore
import Foundation
import ParseWire
import WallDomain

/// The embedded wall shared by every request. Its calls block (SQLite, scrypt), so they run on
/// Dispatch's threads, never on Swift concurrency's few cooperative ones, which must stay free to
/// accept and answer other requests. Finds run on connections of their own (`query`): in WAL
/// mode they read beside the writer, so a long scan (a world-sized count) holds up neither posts,
/// log-ins nor the other finds, only the one connection it reads through.
package final class SharedWall: @unchecked Sendable {
    // Unchecked: each EmbeddedWall holds only immutable, thread-safe parts (a GRDB DatabaseQueue,
    // which serialises every access, the hasher and the clock); `idle` is guarded by `lock`.
    private let wall: EmbeddedWall
    private let readers: [EmbeddedWall]
    private let lock = NSLock()
    private var idle: [Int]
    private let available: DispatchSemaphore
    private let queue = DispatchQueue(label: "anywall-server.wall", attributes: .concurrent)

    /// Shares `wall`; finds go through `readers` (other connections to the same file), or
    /// through `wall` itself when there are none.
    package init(_ wall: EmbeddedWall, readers: [EmbeddedWall] = []) {
        self.wall = wall
        self.readers = readers
        idle = Array(readers.indices)
        available = DispatchSemaphore(value: readers.count)
    }

    /// Runs `body` with the wall on a Dispatch thread.
    package func run<T: Sendable>(_ body: @escaping @Sendable (EmbeddedWall) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(self.wall) }) }
        }
    }

    /// Runs `body`, which only reads, on an idle query connection (waiting for one when all are
    /// busy) on a Dispatch thread.
    package func query<T: Sendable>(_ body: @escaping @Sendable (EmbeddedWall) throws -> T) async throws -> T {
        guard !readers.isEmpty else { return try await run(body) }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                self.available.wait()
                let reader = self.lock.withLock { self.idle.removeLast() }
                defer {
                    self.lock.withLock { self.idle.append(reader) }
                    self.available.signal()
                }
                continuation.resume(with: Result { try body(self.readers[reader]) })
            }
        }
    }
}
