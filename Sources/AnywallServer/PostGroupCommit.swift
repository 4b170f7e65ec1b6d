import Dispatch
import EmbeddedStore
import Foundation
import WallDomain

/// Group commit of new posts on the SQLite store: posts asked for while a transaction is being
/// written wait, then go together into the next one, so they share one durable commit (one
/// `fsync`) instead of paying one each. Each post is answered only once the transaction holding
/// it committed; a post refused in a group is answered alone and writes nothing.
final class PostGroupCommit: @unchecked Sendable {
    // Unchecked: `waiting` and `writing` are guarded by `lock`.
    private struct Waiting {
        let creation: PostCreation
        let answer: CheckedContinuation<StoredPost, Error>
    }

    /// Bounds one transaction, so the first post of a large group is not answered much later.
    private static let largestGroup = 256

    private let wall: EmbeddedWall
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var waiting: [Waiting] = []
    private var writing = false

    /// Writes to `wall` on `queue`, whose threads may block.
    init(wall: EmbeddedWall, queue: DispatchQueue) {
        self.wall = wall
        self.queue = queue
    }

    /// Leaves the post with the next group; returns once it is durable.
    func create(_ creation: PostCreation) async throws -> StoredPost {
        try await withCheckedThrowingContinuation { answer in
            let startWriter = lock.withLock {
                waiting.append(Waiting(creation: creation, answer: answer))
                defer { writing = true }
                return !writing
            }
            if startWriter { queue.async { self.writeGroups() } }
        }
    }

    /// Writes groups until none is waiting: what arrives during one transaction is the next group.
    private func writeGroups() {
        while let group = nextGroup() {
            do {
                let results = try wall.createStoredPosts(group.map(\.creation))
                for (entry, result) in zip(group, results) { entry.answer.resume(with: result) }
            } catch {
                for entry in group { entry.answer.resume(throwing: error) }
            }
        }
    }

    private func nextGroup() -> [Waiting]? {
        lock.withLock {
            guard !waiting.isEmpty else {
                writing = false
                return nil
            }
            let group = Array(waiting.prefix(Self.largestGroup))
            waiting.removeFirst(group.count)
            return group
        }
    }
}
