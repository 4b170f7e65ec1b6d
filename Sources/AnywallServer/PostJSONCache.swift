import Foundation
import Synchronization
import WallDomain

/// The JSON of posts as finds and fetches return them, kept: encoding is most of a find's cost (JSONEncoder
/// takes ~30 µs a post, the nearest-posts search ~130 µs for all 20), and the posts near where
/// people are asked about again and again. A post is kept by its whole record with the way it
/// was rendered, so an edit, a new ACL, an author's new name or a field removed by the schema
/// makes another key, never a stale answer. When full it is emptied, which bounds its memory.
final class PostJSONCache: Sendable {
    /// How a find renders a post: what it includes and which fields it returns.
    struct Rendering: Hashable, Sendable {
        let includeUser: Bool
        let keys: Set<String>?
        let excludeKeys: Set<String>
    }

    private struct Key: Hashable {
        let post: StoredPost
        let rendering: Rendering
    }

    /// About 20 MB of JSON at the posts' usual size.
    static let capacity = 40_000

    private let kept = Mutex<[Key: Data]>([:])

    /// The post's JSON, encoded by `encode` the first time.
    func json(_ post: StoredPost, _ rendering: Rendering, encode: () throws -> Data) rethrows -> Data {
        let key = Key(post: post, rendering: rendering)
        if let data = kept.withLock({ $0[key] }) { return data }
        let data = try encode()
        kept.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = data
        }
        return data
    }
}
