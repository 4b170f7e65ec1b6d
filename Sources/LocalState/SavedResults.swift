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
    private let directory: URL

    /// Saved results kept in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The file name for a query, from a digest of its description.
    public static func key(backend: String, location: String, query: WallQuery) -> String {
        let description = ([backend, location, "\(query.searchDistance.meters)", "\(query.limit)"] + query.areaKey).joined(separator: "\n")
        return HexDigest.sha256(description, bytes: 12)
    }

    /// The previous result, or an empty one when this query never ran (so every post is `added`).
    public func previous(key: String) throws -> [NearbyPost] {
        guard let data = try PrivateFile.read(file(key)) else { return [] }
        // A damaged file is as good as none: the next run starts over rather than failing the cron job.
        return (try? JSONDecoder().decode([NearbyPost].self, from: data)) ?? []
    }

    /// Keeps `result` (the printed views, never a hidden post's text) as the query's latest.
    public func save(_ result: [NearbyPost], key: String) throws {
        try PrivateFile.write(try JSONEncoder().encode(result), to: file(key), mode: 0o600)
    }

    private func file(_ key: String) -> URL {
        directory.appendingPathComponent("\(key).json")
    }
}
