import Foundation
import GRDBSQLite
import WallDomain

/// The in-process peer of `EmbeddedWall.nearby` (issue 37): the growing-radius SQL that
/// bench-wall gives the sqlite3 tool (the wall's R*Tree box, the haversine distance in SQL, the
/// author joined, nearest first, ties by objectId), prepared once and run through SQLite's C API
/// on the same file, ring after ring until one holds the limit.
final class SQLNearbyPeer {
    /// What SQLite said when the peer could not run.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { "the SQL peer: \(message)" }
    }

    private var connection: OpaquePointer?
    /// The statement for one box, and for two (a circle across the antimeridian).
    private var statements: [OpaquePointer?] = [nil, nil]
    private let rings: [Distance]

    /// Opens `file` read-only, with the page cache the wall gives its own connections;
    /// `rings` are the radii tried in turn (the query's search distance ends them).
    init(file: URL, rings: [Distance]) throws {
        self.rings = rings.sorted()
        guard sqlite3_open_v2(file.path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw Failure(message: "cannot open \(file.path)")
        }
        try execute("PRAGMA cache_size = -65536")
        for boxes in 1...2 {
            guard sqlite3_prepare_v3(connection, Self.sql(boxes: boxes), -1, UInt32(SQLITE_PREPARE_PERSISTENT),
                                     &statements[boxes - 1], nil) == SQLITE_OK else { throw failure() }
        }
    }

    deinit {
        for statement in statements { sqlite3_finalize(statement) }
        sqlite3_close_v2(connection)
    }

    /// The posts `EmbeddedWall.nearby` gives for `query` (no area), as this SQL finds them.
    func nearby(_ query: WallQuery) throws -> [Post] {
        var posts: [Post] = []
        for ring in rings.filter({ $0 < query.searchDistance }) + [query.searchDistance] {
            posts = try found(within: ring, of: query)
            if posts.count == query.limit { break }
        }
        return posts
    }

    private func found(within ring: Distance, of query: WallQuery) throws -> [Post] {
        let boxes = BoundingBox.covering(center: query.center, radius: ring)
        guard let statement = statements[boxes.count - 1] else { throw Failure(message: "no statement for \(boxes.count) boxes") }
        defer { sqlite3_reset(statement) }
        sqlite3_bind_double(statement, 1, query.center.latitude)
        sqlite3_bind_double(statement, 2, query.center.longitude)
        sqlite3_bind_double(statement, 3, ring.meters)
        sqlite3_bind_int64(statement, 4, Int64(query.limit))
        for (index, box) in boxes.enumerated() {
            let first = Int32(5 + 4 * index)
            sqlite3_bind_double(statement, first, box.minLatitude)
            sqlite3_bind_double(statement, first + 1, box.maxLatitude)
            sqlite3_bind_double(statement, first + 2, box.minLongitude)
            sqlite3_bind_double(statement, first + 3, box.maxLongitude)
        }
        var posts: [Post] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                posts.append(Post(objectId: Self.text(statement, 0) ?? "", text: Self.text(statement, 1) ?? "",
                                  location: try GeoPoint(latitude: sqlite3_column_double(statement, 3), longitude: sqlite3_column_double(statement, 4)),
                                  author: Self.text(statement, 2),
                                  createdAt: Date(timeIntervalSince1970: Double(sqlite3_column_int64(statement, 5)) / 1000)))
            case SQLITE_DONE: return posts
            default: throw failure()
            }
        }
    }

    /// bench_wall.py's `nearest_sql`, with parameters: ?1 latitude, ?2 longitude, ?3 the ring in
    /// metres, ?4 the limit, then each box's minimum and maximum latitude and longitude.
    private static func sql(boxes: Int) -> String {
        let within = (0..<boxes).map { index in
            let first = 5 + 4 * index
            return "(postLocation.maxLatitude >= ?\(first) AND postLocation.minLatitude <= ?\(first + 1) AND "
                + "postLocation.maxLongitude >= ?\(first + 2) AND postLocation.minLongitude <= ?\(first + 3))"
        }.joined(separator: " OR ")
        return """
            SELECT post.objectId, post.text, coalesce(user.name, user.username) AS author, post.latitude, post.longitude,
             post.createdAt,
             \(2 * GreatCircle.earthRadius.meters) * asin(min(1, sqrt(pow(sin(radians(post.latitude - ?1) / 2), 2)
               + cos(radians(?1)) * cos(radians(post.latitude)) * pow(sin(radians(post.longitude - ?2) / 2), 2)))) AS distanceMeters
            FROM postLocation JOIN post ON post.id = postLocation.id LEFT JOIN user ON user.id = post.userId
            WHERE (\(within)) AND distanceMeters <= ?3
            ORDER BY distanceMeters, post.objectId LIMIT ?4
            """
    }

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: bytes)
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else { throw failure() }
    }

    private func failure() -> Failure {
        Failure(message: String(cString: sqlite3_errmsg(connection)))
    }
}
