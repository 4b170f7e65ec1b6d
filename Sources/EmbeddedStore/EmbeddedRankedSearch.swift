import Foundation
import GRDB
import WallDomain

/// `nearby --sort new|top|hot` on the embedded wall: the posts within the search distance (and
/// area) that the reader may see, read in the order's own terms from SQLite (newest first, or the
/// highest score first) and stopped as soon as no post left can make the page. `PostSort` then
/// orders what was read, so the order is the one every backend gives.
///
/// - `new`, `top`: SQLite sorts the box's posts; reading stops after `limit` posts within the
///   circle, and the ties of the last one.
/// - `hot`: read newest first; a post `age` old is at most as hot as the box's highest score at
///   that age, so reading stops once that bound is below the page's coolest post.
///
/// Each reads the box's posts' ids and sorts them in SQLite: the cost grows with the posts in the
/// box, a fraction of reading them all.
struct EmbeddedRankedSearch {
    let db: Database
    /// The reader's objectId, nil for anyone: the posts of `restrictedPostLocation` they may read come too.
    let reader: String?
    let now: Date

    func run(_ query: WallQuery, _ sort: PostSort) throws -> [Post] {
        let (within, arguments) = inBox(query)
        let order = sort == .top ? "score DESC, createdAt DESC" : "createdAt DESC"
        // Only what ranks a post is sorted and read; the few that make the page are read whole after.
        let rows = try Row.fetchCursor(db, sql: "SELECT id, latitude, longitude, score, createdAt FROM post p WHERE \(within) ORDER BY \(order)",
                                       arguments: arguments)
        var found: [Int64] = []
        switch sort {
        case .near, .new, .top:
            // The order's key of the limit-th post: the posts read after it that tie with it count too.
            var lastKey: (score: Int, createdAt: Int64)?
            while let row = try rows.next() {
                let key = (score: sort == .top ? row[3] as Int : 0, createdAt: row[4] as Int64)
                if let lastKey, key != lastKey { break }
                guard try inside(row, query) else { continue }
                found.append(row[0])
                if found.count >= query.limit { lastKey = key }
            }
        case .hot:
            let highest = try Int.fetchOne(db, sql: "SELECT max(p.score) FROM post p WHERE \(within)", arguments: arguments) ?? 0
            // The heats of the page so far, hottest first.
            var heats: [Double] = []
            while let row = try rows.next() {
                let age = Duration.seconds(max(0, now.timeIntervalSince(EmbeddedWall.date(millis: row[4]))))
                // (With no score above -1 every heat is at most 0 and grows with age: no bound, all is read.)
                if highest > -1, heats.count >= query.limit, PostSort.hotness(score: highest, age: age) < heats[query.limit - 1] { break }
                guard try inside(row, query) else { continue }
                found.append(row[0])
                let heat = PostSort.hotness(score: row[3], age: age)
                heats.insert(heat, at: heats.firstIndex { $0 < heat } ?? heats.count)
            }
        }
        let posts = try found.map { id in
            guard let row = try Row.fetchOne(db, sql: SocialRow.select(where: "p.id = :id"), arguments: ["me": nil, "id": id]) else {
                throw AnywallError.failure("post \(id) vanished inside its own read")
            }
            return try SocialRow(row: row).post
        }
        return sort.ordered(posts, from: query.center, now: now, limit: query.limit)
    }

    /// Whether the post of a ranking row (latitude, longitude in columns 1 and 2) is within the search.
    private func inside(_ row: Row, _ query: WallQuery) throws -> Bool {
        let location = try GeoPoint(latitude: row[1], longitude: row[2])
        return query.center.distance(to: location) <= query.searchDistance && (query.area?.covers(location) ?? true)
    }

    /// The condition "in one of the search's boxes, readable by the reader", and its arguments.
    private func inBox(_ query: WallQuery) -> (String, StatementArguments) {
        var parts: [String] = []
        var arguments: [String: (any DatabaseValueConvertible)?] = [:]
        let bands = LatitudeBand.bands(covering: query.center, radius: query.searchDistance, margin: EmbeddedNearbySearch<Post>.storedDegreeError)
        for (i, box) in bands.flatMap(\.boxes).enumerated() {
            let overlaps = "maxLatitude >= :s\(i) AND minLatitude <= :n\(i) AND maxLongitude >= :w\(i) AND minLongitude <= :e\(i)"
            (arguments["s\(i)"], arguments["n\(i)"], arguments["w\(i)"], arguments["e\(i)"]) =
                (box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude)
            parts.append("SELECT id FROM postLocation WHERE \(overlaps)")
            if reader != nil { parts.append("SELECT id FROM restrictedPostLocation WHERE \(overlaps) AND instr(readers, :reader) > 0") }
        }
        if let reader { arguments["reader"] = " \(reader) " }
        return ("p.id IN (\(parts.joined(separator: " UNION ALL ")))", StatementArguments(arguments))
    }
}
