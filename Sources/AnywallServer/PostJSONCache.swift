import Foundation
import Synchronization
import WallDomain

/// The JSON of posts as finds and fetches return them, kept: encoding is most of a find's cost
/// (docs/performance.md), and the posts near where people are asked about again and again. Each
/// post is kept once for each way it is rendered (with or without its author), beside the record
/// it was rendered from: an edit, a new ACL, an author's new name or a field removed by the schema
/// makes a record that differs, and the post is rendered again in place of the old one, never
/// answered stale, and never kept twice (a post edited again and again would otherwise leave
/// every version behind).
///
/// Only the renderings every client shares are kept: one that picks fields (`keys`,
/// `excludeKeys`) is the client's own choice, and kept, a client making up a new choice for each
/// request could fill the cache with entries nobody asks for again. Memory is bounded in bytes,
/// a post's record and its JSON counted both; when full the cache is emptied.
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
        let objectId: String
        let includeUser: Bool
    }

    private struct Entry {
        let post: StoredPost
        let json: Data
    }

    private struct Kept {
        var entries: [Key: Entry] = [:]
        var bytes = 0
    }

    /// The most bytes kept.
    static let capacity = 32 * 1024 * 1024

    private let kept = Mutex(Kept())

    /// Forgets a deleted post's renderings: nothing would ask for them again, and a wall whose
    /// posts come and go would otherwise fill the cache with the gone ones.
    func forget(_ objectId: String) {
        kept.withLock { cache in
            for includeUser in [false, true] {
                if let old = cache.entries.removeValue(forKey: Key(objectId: objectId, includeUser: includeUser)) {
                    cache.bytes -= 2 * old.json.count
                }
            }
        }
    }

    /// The post's JSON, encoded by `encode` the first time it is rendered a shared way (and again
    /// once its record changed).
    func json(_ post: StoredPost, _ rendering: Rendering, encode: () throws -> Data) rethrows -> Data {
        guard rendering.isShared else { return try encode() }
        let key = Key(objectId: post.objectId, includeUser: rendering.includeUser)
        if let entry = kept.withLock({ $0.entries[key] }), entry.post == post { return entry.json }
        let json = try encode()
        // The record is about as large as its JSON: both are counted.
        let cost = 2 * json.count
        kept.withLock { cache in
            if let old = cache.entries[key] { cache.bytes -= 2 * old.json.count }
            if cache.bytes + cost > Self.capacity { cache = Kept() }
            cache.entries[key] = Entry(post: post, json: json)
            cache.bytes += cost
        }
        return json
    }
}
