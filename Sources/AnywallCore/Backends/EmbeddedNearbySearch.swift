import Foundation
import GRDB

/// The nearest-posts query on the embedded wall.
///
/// Scanning one box for the whole search distance is ruinous in a dense city, so the search
/// grows a ring (1 -> 4 -> 16 -> 50 km, then the search distance) until it holds `limit`
/// posts: when a ring of radius r holds at least `limit` posts within r, no post outside it
/// can be among the nearest `limit`, so the answer is exact.
struct EmbeddedNearbySearch {
    static let ringSteps: [Distance] = [.kilometers(1), .kilometers(4), .kilometers(16), .kilometers(50)]

    let db: Database

    func run(_ query: WallQuery) throws -> [Post] {
        var rings = Self.ringSteps.filter { $0 < query.searchDistance }
        rings.append(query.searchDistance)
        let statement = try db.cachedStatement(sql: """
            SELECT post.latitude, post.longitude, post.objectId, post.text, post.createdAt, user.username, user.name
            FROM postLocation JOIN post ON post.id = postLocation.id LEFT JOIN user ON user.id = post.userId
            WHERE postLocation.maxLatitude >= ? AND postLocation.minLatitude <= ?
              AND postLocation.maxLongitude >= ? AND postLocation.minLongitude <= ?
            """)
        for ring in rings {
            var found: [(distance: Double, post: Post)] = []
            for box in BoundingBox.covering(center: query.center, radius: ring) {
                // R*Tree coordinates are 32-bit floats rounded outward, so the overlap test above
                // never misses a point in the box; the exact distance below decides.
                let rows = try Row.fetchCursor(statement, arguments: [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude])
                while let row = try rows.next() {
                    let point = try GeoPoint(latitude: row[0], longitude: row[1])
                    let distance = query.center.distance(to: point).meters
                    guard distance <= ring.meters else { continue }
                    let name: String? = row[6]
                    let username: String? = row[5]
                    found.append((distance, Post(objectId: row[2], text: row[3], location: point,
                                                 author: name ?? username,
                                                 createdAt: EmbeddedWall.date(millis: row[4]))))
                }
            }
            if found.count >= query.limit || ring == rings.last {
                found.sort { ($0.distance, $0.post.objectId) < ($1.distance, $1.post.objectId) }
                return found.prefix(query.limit).map(\.post)
            }
        }
        return []
    }
}
