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
        let order = sort == .top ? "p.score DESC, p.createdAt DESC" : "p.createdAt DESC"
        let rows = try Row.fetchCursor(db, sql: SocialRow.select(where: within) + " ORDER BY \(order)", arguments: arguments)
        var found: [Post] = []
        switch sort {
        case .near, .new, .top:
            // The order's key of the limit-th post: the posts read after it that tie with it count too.
            var lastKey: (score: Int, createdAt: Date)?
            while let row = try rows.next() {
                let post = try SocialRow(row: row).post
                let key = (score: sort == .top ? post.score : 0, createdAt: post.createdAt)
                if let lastKey, key != lastKey { break }
                guard inside(post, query) else { continue }
                found.append(post)
                if found.count >= query.limit { lastKey = key }
            }
        case .hot:
            let highest = try Int.fetchOne(db, sql: "SELECT max(p.score) FROM post p WHERE \(within)", arguments: arguments) ?? 0
            // The heats of the page so far, hottest first.
            var heats: [Double] = []
            while let row = try rows.next() {
                let post = try SocialRow(row: row).post
                let age = Duration.seconds(max(0, now.timeIntervalSince(post.createdAt)))
                // (With no score above -1 every heat is at most 0 and grows with age: no bound, all is read.)
                if highest > -1, heats.count >= query.limit, PostSort.hotness(score: highest, age: age) < heats[query.limit - 1] { break }
                guard inside(post, query) else { continue }
                found.append(post)
                let heat = PostSort.hotness(score: post.score, age: age)
                heats.insert(heat, at: heats.firstIndex { $0 < heat } ?? heats.count)
            }
        }
        return sort.ordered(found, from: query.center, now: now, limit: query.limit)
    }

    private func inside(_ post: Post, _ query: WallQuery) -> Bool {
        query.center.distance(to: post.location) <= query.searchDistance && (query.area?.covers(post.location) ?? true)
    }

    /// The condition "in one of the search's boxes, readable by the reader", and its arguments.
    private func inBox(_ query: WallQuery) -> (String, StatementArguments) {
        var parts: [String] = []
        var arguments: [String: (any DatabaseValueConvertible)?] = ["me": nil]
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
