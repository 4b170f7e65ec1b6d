import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The result of the previous run of each query, kept for `nearby --changes`.
///
/// A query is named by what stays the same between runs of a cron job: the wall, the location
/// source and the search (search distance, limit, area). The filter radius is not part of the name, so
/// changing it reveals or hides posts. Only the printed views are kept: a hidden post's text
/// is never written here.
public struct SavedResults: Sendable {
    private let store: KeyedFileStore

    /// Saved results kept in `directory`.
    public init(directory: URL) {
        store = KeyedFileStore(directory: directory)
    }

    /// The file name for a query, from a digest of its description.
    public static func key(backend: String, location: String, query: WallQuery) -> String {
        KeyedFileStore.key([backend, location, "\(query.searchDistance.meters)", "\(query.limit)"] + query.areaKey)
    }

    /// The previous result, or an empty one when this query never ran (so every post is `added`).
    public func previous(key: String) throws -> [NearbyPost] {
        // A damaged file is as good as none: the next run starts over rather than failing the cron job.
        store.load([NearbyPost].self, key: key) ?? []
    }

    /// Keeps `result` (the printed views, never a hidden post's text) as the query's latest.
    public func save(_ result: [NearbyPost], key: String) throws {
        try store.save(result, key: key)
    }
}
