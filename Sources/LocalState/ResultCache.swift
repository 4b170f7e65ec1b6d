import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The last answer of each `nearby` question asked of a remote wall, for the cache policies.
///
/// A question is the wall, the place, the search distance, the limit, the area and the filter radius. Only
/// the printed views are kept, so a hidden post's text is never written to disk.
public struct ResultCache: Sendable {
    /// A cached answer and when the server gave it.
    public struct Entry: Codable, Sendable {
        public let posts: [NearbyPost]
        public let cachedAt: Date
    }

    private let store: KeyedFileStore

    /// A cache kept in `directory`.
    public init(directory: URL) {
        store = KeyedFileStore(directory: directory)
    }

    /// The file name for a question.
    public static func key(backend: String, query: WallQuery, filterRadius: Distance, sort: String? = nil) -> String {
        KeyedFileStore.key([backend, "\(query.center.latitude),\(query.center.longitude)", "\(query.searchDistance.meters)",
                           "\(query.limit)", "\(filterRadius.meters)"] + query.areaKey + (sort.map { ["sort \($0)"] } ?? []))
    }

    /// The cached answer, or nil when there is none (or it cannot be read: as good as none).
    public func load(key: String) -> Entry? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return store.load(Entry.self, key: key, decoder: decoder)
    }

    /// Keeps `posts` as the latest answer to the question.
    public func save(_ posts: [NearbyPost], key: String, at date: Date) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        try store.save(Entry(posts: posts, cachedAt: date), key: key, encoder: encoder)
    }
}
