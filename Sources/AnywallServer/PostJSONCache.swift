import Foundation
import Synchronization
import WallDomain

/// The JSON of posts as finds and fetches return them, kept: encoding is most of a find's cost
/// (docs/performance.md), and the posts near where people are asked about again and again. A post
/// is kept by its whole record with the way it was rendered, so an edit, a new ACL, an author's new
/// name or a field removed by the schema makes another key, never a stale answer.
///
/// Only the renderings every client shares are kept (with or without the author): one that picks
/// fields (`keys`, `excludeKeys`) is the client's own choice, and kept, a client making up a new
/// choice for each request could fill the cache with entries nobody asks for again. Memory is
/// bounded in bytes, a post's record and its JSON counted both; when full the cache is emptied.
final class PostJSONCache: Sendable {
    /// How a find renders a post: what it includes and which fields it returns.
    struct Rendering: Hashable, Sendable {
        let includeUser: Bool
        let keys: Set<String>?
        let excludeKeys: Set<String>

        /// Whether every client that renders a post so gets the same JSON, with no field picked.
        var isShared: Bool { keys == nil && excludeKeys.isEmpty }
    }

    private struct Key: Hashable {
        let post: StoredPost
        let includeUser: Bool
    }

    private struct Kept {
        var entries: [Key: Data] = [:]
        var bytes = 0
    }

    /// The most bytes kept.
    static let capacity = 32 * 1024 * 1024

    private let kept = Mutex(Kept())

    /// The post's JSON, encoded by `encode` the first time it is rendered a shared way.
    func json(_ post: StoredPost, _ rendering: Rendering, encode: () throws -> Data) rethrows -> Data {
        guard rendering.isShared else { return try encode() }
        let key = Key(post: post, includeUser: rendering.includeUser)
        if let data = kept.withLock({ $0.entries[key] }) { return data }
        let data = try encode()
        // The record is about as large as its JSON: both are counted.
        let cost = 2 * data.count
        kept.withLock { cache in
            if cache.bytes + cost > Self.capacity { cache = Kept() }
            if cache.entries.updateValue(data, forKey: key) == nil { cache.bytes += cost }
        }
        return data
    }
}
