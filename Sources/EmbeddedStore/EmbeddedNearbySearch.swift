import AnywallSupport
import Foundation
import GRDB
import GRDBSQLite
import WallDomain
import WallStorage

/// The nearest-posts query on the embedded wall: exact, and cheap even in a dense city.
///
/// - Rings: scanning one box for the whole search distance is ruinous in a dense city, so the
///   search grows a ring until it surely holds `limit` posts; no post outside such a ring can be
///   among the nearest `limit`. The first ring is a city block; the next is sized from the
///   density the last one saw, so a dense city needs one or two rings, an empty ocean a few
///   cheap ones. A ring that has read a budget of entries, and again each time it doubles,
///   is abandoned when those it has read already put `limit` posts within a much narrower ring:
///   a ring grown from a sparse place into a dense one then costs a budget or two, not the dense
///   place's every post.
/// - Bands: near a pole a ring's box spans every longitude, far more than the ring; it is then
///   read in latitude bands, each as wide as the ring is there, nearest first (`LatitudeBand`).
/// - Filter, then refine: the scan reads only the R*Tree, whose 32-bit float coordinates are
///   within `coordinateError` of the truth, so it never touches the `post` table; of each point's
///   box it reads one corner (the other is as far from the truth, and each column read costs).
///   Exact coordinates are then read for the few candidates that can be in the answer.
/// - Areas: with `--within`, a ring is scanned only where it meets the area's boxes, and its
///   candidates are counted once their exact place is known to be in the area.
/// - Access: posts everyone reads are in one R*Tree, posts with readers in another that keeps
///   them beside each point; a reader's scan takes the first and, for a signed-in user, what the
///   second lets them see, so every ring counts only posts the reader may see.
/// - Rows are read through SQLite's C API (GRDB still prepares, caches and binds): in this loop
///   GRDB's `Row` subscripts cost more than all the rest of the work on a row. The public R*Tree
///   is walked node by node by the search itself (`PointIndexScan`), not through the module.
/// - Kept between searches: the index's nodes and the candidates' authors a long-lived wall has
///   read (`IndexNodeCache`, `AuthorCache`), each checked against the wall at the start of the
///   search's read transaction.
struct EmbeddedNearbySearch<Found> {
    /// The first ring's radius. Narrow, because the two ways to miss cost differently: a ring too
    /// narrow costs one more, sized from the density it saw; one too wide reads every post in it,
    /// and a city holds more of them as the wall grows. At a city of a 10^7-post wall the 20th post
    /// is ~80 m away: a first ring of 250 m read ~250 entries and took 2.4x the time of a 10^6
    /// wall's search; 100 m reads ~40 and takes 1.3x, and random places take the same time with
    /// either (docs/performance.md).
    static var firstRing: Distance { .meters(100) }
    /// Each ring is at least this many times wider than the last.
    /// (Small: in a city the 20th post is often just past the first ring.)
    static var minimumGrowth: Double { 1.25 }
    /// A ring after an empty one is this many times wider.
    static var growthWhenEmpty: Double { 4.0 }
    /// How far (degrees) a coordinate the R*Tree stores, a float rounded outward, may be from the
    /// exact one, either corner of a point's box.
    static var storedDegreeError: Double { 1.0 / 65_536 }
    /// An upper bound on how far a distance computed from R*Tree coordinates can be from the
    /// exact one: `storedDegreeError` is 1.7 m per coordinate.
    static var coordinateError: Distance { .meters(5) }

    let db: Database
    /// Whose posts the search may return.
    let reader: PostReader
    /// What it reads of each post it finds.
    let shape: FoundShape<Found>
    /// The authors the wall has read before.
    let authors: AuthorCache
    /// The location index's nodes the wall has read before.
    let nodes: IndexNodeCache

    /// A ring read in part showed that a narrower one holds `limit` posts.
    private struct NarrowerRingSuffices: Error {
        let radiusMeters: Double
    }

    private struct Candidate {
        let id: Int64
        /// The distance from the R*Tree's coordinates, within `coordinateError` of the exact one.
        let estimate: Double
    }


    func run(_ query: WallQuery) throws -> [Found] {
        // One read transaction, so the scan and the fetch see the same wall.
        try db.cachedStatement(sql: "BEGIN DEFERRED").execute()
        do {
            // The first read begins the transaction's view of the wall, which the caches are checked against.
            try authors.refresh(db)
            nodes.refresh(db)
            let found = try search(query)
            try db.cachedStatement(sql: "COMMIT").execute()
            return found
        } catch {
            try? db.cachedStatement(sql: "ROLLBACK").execute()
            throw error
        }
    }

    private static var restrictedScanSQL: String { """
        SELECT id, minLatitude, minLongitude FROM restrictedPostLocation
        WHERE maxLatitude >= ? AND minLatitude <= ? AND maxLongitude >= ? AND minLongitude <= ?
        """ }

    /// One of the reader's scans of a box: the posts everyone reads, walked node by node
    /// (`PointIndexScan`), or those with readers, through the module with the reader (a user's
    /// objectId) to bind after the box's coordinates when it takes one.
    private enum Scan {
        case everyone(PointIndexScan)
        case restricted(Statement, reader: String?)
    }

    /// A post with readers that name the reader (bound twice: their entry, then their objectId),
    /// or a role they hold.
    private static var readableByReaderSQL: String { """
         AND (instr(readers, ?) > 0
              OR EXISTS (SELECT 1 FROM roleUser JOIN role ON role.id = roleUser.roleId
                         WHERE roleUser.userId = (SELECT id FROM user WHERE objectId = ?) AND instr(readers, ' role:' || role.name || ' ') > 0))
        """ }

    /// The scans of one box for the reader.
    private var scans: [Scan] {
        get throws {
            let everyone = Scan.everyone(try PointIndexScan(db, table: "postLocation", kept: nodes))
            switch reader {
            case .master: return [everyone, .restricted(try db.cachedStatement(sql: Self.restrictedScanSQL), reader: nil)]
            case .user(nil): return [everyone]
            case .user(let userId?):
                return [everyone, .restricted(try db.cachedStatement(sql: Self.restrictedScanSQL + Self.readableByReaderSQL), reader: userId)]
            }
        }
    }

    /// Hands `body` the id and stored place of each point of the reader's scans that overlaps `box`.
    private func forEachEntry(in box: BoundingBox, of scans: [Scan],
                              _ body: (_ id: Int64, _ latitude: Double, _ longitude: Double) throws -> Void) throws {
        for scan in scans {
            switch scan {
            case .everyone(let index):
                try index.forEachPoint(in: box, body)
            case .restricted(let statement, let reader):
                var arguments: StatementArguments = [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude]
                if let reader { arguments += [" \(reader) ", reader] }
                try statement.setArguments(arguments)
                try db.forEachRow(of: statement) { row in
                    try body(sqlite3_column_int64(row, 0), sqlite3_column_double(row, 1), sqlite3_column_double(row, 2))
                }
            }
        }
    }

    // Distances in the loop are plain metres (the names say so): this is the hot path.
    private func search(_ query: WallQuery) throws -> [Found] {
        if let area = query.area { return try search(query, within: area) }
        let scans = try self.scans
        let errorMeters = Self.coordinateError.meters
        let searchMeters = query.searchDistance.meters
        var radiusMeters = min(Self.firstRing.meters, searchMeters)
        // The narrowest ring known to hold `limit` posts: rings never grow past it, so a search
        // that starts over ends (each start over narrows it by a tenth or more).
        var enoughMeters = searchMeters
        while true {
            var candidates: [Candidate] = []
            var surelyInside = 0
            var entries = 0
            var checkpoint = Self.entryBudget(limit: query.limit)
            do {
                for band in LatitudeBand.bands(covering: query.center, radius: .meters(radiusMeters), margin: Self.storedDegreeError) {
                    // The overlap test never misses a point in the box (the floats are rounded outward).
                    for box in band.boxes {
                        try forEachEntry(in: box, of: scans) { id, latitude, longitude in
                            let estimate = GreatCircle.distance(from: query.center, latitude: latitude, longitude: longitude).meters
                            if estimate <= radiusMeters + errorMeters, band.owns(latitude: latitude) {
                                candidates.append(Candidate(id: id, estimate: estimate))
                                if estimate <= radiusMeters - errorMeters { surelyInside += 1 }
                            }
                            entries += 1
                            if entries == checkpoint {
                                checkpoint *= 2
                                if surelyInside >= query.limit {
                                    let narrower = Self.radiusHolding(query.limit, of: candidates, within: radiusMeters)
                                    // Starting over for a ring barely narrower would not pay.
                                    if narrower < 0.9 * radiusMeters { throw NarrowerRingSuffices(radiusMeters: narrower) }
                                }
                            }
                        }
                    }
                }
            } catch let narrower as NarrowerRingSuffices {
                enoughMeters = narrower.radiusMeters
                radiusMeters = narrower.radiusMeters
                continue
            }
            if surelyInside >= query.limit {
                // The nearest `limit` are all within the limit-th estimate plus the error; any post
                // whose estimate exceeds that by twice the error is farther than all of them.
                candidates.sort { $0.estimate < $1.estimate }
                let bound = candidates[query.limit - 1].estimate + 2 * errorMeters
                return try posts(candidates.prefix { $0.estimate <= bound }, near: query.center, within: query.searchDistance, limit: query.limit)
            }
            if radiusMeters >= enoughMeters {
                return try posts(candidates[...], near: query.center, within: query.searchDistance, limit: query.limit)
            }
            radiusMeters = min(enoughMeters, nextRadius(after: radiusMeters, found: surelyInside, limit: query.limit))
        }
    }

    /// How many index entries a ring reads before it checks whether a narrower ring would do, and
    /// again each time the count doubles. A ring grown from a sparse place (an ocean, the Arctic)
    /// can reach a dense one: grown 4x past 1,000 km at 80°N, one read 179,000 entries of
    /// bench-wall's million posts to answer with 20 posts within 1,150 km (docs/performance.md).
    /// A ring in a city reads ~50, one over a pile of posts at a city centre ~1,200.
    static func entryBudget(limit: Int) -> Int { max(4_096, 64 * limit) }

    /// The radius (metres) of the ring that surely holds the nearest `limit` of the candidates
    /// surely inside a ring of `radiusMeters`: read whole, it ends the search.
    private static func radiusHolding(_ limit: Int, of candidates: [Candidate], within radiusMeters: Double) -> Double {
        let inside = candidates.lazy.map(\.estimate).filter { $0 <= radiusMeters - coordinateError.meters }.sorted()
        return inside[limit - 1] + coordinateError.meters
    }

    /// The search with an area. All posts in the area within a ring's radius are known exactly once
    /// the ring is read, so the ring settles the answer as soon as it holds `limit` of them. Each
    /// post's row is read once, in the first ring that reaches it.
    private func search(_ query: WallQuery, within area: Area) throws -> [Found] {
        let scans = try self.scans
        let errorMeters = Self.coordinateError.meters
        let searchMeters = query.searchDistance.meters
        var radiusMeters = min(Self.firstRing.meters, searchMeters)
        var read = Set<Int64>()
        var inArea: [(rank: NearestFirst.Rank, post: Found)] = []
        while true {
            var candidates: [Candidate] = []
            // Banded near a pole as the plain search is; a post in two bands' boxes is read once (`read`).
            let rings = LatitudeBand.bands(covering: query.center, radius: .meters(radiusMeters), margin: Self.storedDegreeError).flatMap(\.boxes)
            for ring in rings {
                for box in area.boxes.compactMap(ring.intersection) {
                    try forEachEntry(in: box, of: scans) { id, latitude, longitude in
                        let estimate = GreatCircle.distance(from: query.center, latitude: latitude, longitude: longitude).meters
                        guard estimate <= radiusMeters + errorMeters, read.insert(id).inserted else { return }
                        candidates.append(Candidate(id: id, estimate: estimate))
                    }
                }
            }
            inArea += try exactPosts(candidates[...], near: query.center, within: query.searchDistance, area: area)
            let inRing = inArea.filter { $0.rank.distance.meters <= radiusMeters }
            if inRing.count >= query.limit || radiusMeters >= searchMeters {
                return inRing.sorted { $0.rank < $1.rank }
                    .prefix(query.limit).map { $0.post }
            }
            radiusMeters = min(searchMeters, nextRadius(after: radiusMeters, found: inRing.count, limit: query.limit))
        }
    }

    /// How much wider than the density estimate the next ring is, so that it usually suffices.
    static var densityMargin: Double { 1.25 }

    /// A radius (metres) whose disc should hold `limit` posts at the density seen, with a margin.
    private func nextRadius(after radiusMeters: Double, found: Int, limit: Int) -> Double {
        guard found > 0 else { return radiusMeters * Self.growthWhenEmpty }
        let estimate = radiusMeters * (Double(limit) / Double(found)).squareRoot() * Self.densityMargin
        return max(radiusMeters * Self.minimumGrowth, estimate)
    }

    /// The candidates' posts with their authors: the nearest `limit` within `search`, by exact
    /// distance (ties by objectId).
    private func posts(_ candidates: ArraySlice<Candidate>, near center: GeoPoint, within search: Distance, limit: Int) throws -> [Found] {
        try exactPosts(candidates, near: center, within: search, area: nil).prefix(limit).map { $0.post }
    }

    /// The candidates' posts within `search` of `center` (and in `area`, when given), in
    /// `NearestFirst`'s order by exact distance.
    private func exactPosts(_ candidates: ArraySlice<Candidate>, near center: GeoPoint, within search: Distance,
                            area: Area?) throws -> [(rank: NearestFirst.Rank, post: Found)] {
        guard !candidates.isEmpty else { return [] }
        // Up to `candidateSlots` candidates a statement, bound through the C API: a run of its own
        // for each (its cursors opened and closed each time) cost a query a sixth more
        // instructions; a list of ids read through json_each or `IN (...)` cost more again (an
        // ephemeral table built and walked).
        let details = try db.cachedStatement(sql: shape.sql)
        var found: [(rank: NearestFirst.Rank, post: Found)] = []
        found.reserveCapacity(candidates.count)
        var start = candidates.startIndex
        while start < candidates.endIndex {
            let end = min(start + candidateSlots, candidates.endIndex)
            for slot in 0..<candidateSlots {
                // A slot left over holds NULL, which no post's id equals.
                if start + slot < end {
                    sqlite3_bind_int64(details.sqliteStatement, Int32(slot + 1), candidates[start + slot].id)
                } else {
                    sqlite3_bind_null(details.sqliteStatement, Int32(slot + 1))
                }
            }
            try db.forEachRow(of: details) { row in
                let location = try GeoPoint(latitude: sqlite3_column_double(row, 3), longitude: sqlite3_column_double(row, 4))
                let distance = center.distance(to: location)
                guard distance <= search, area?.covers(location) ?? true else { return }
                let author = sqlite3_column_type(row, authorColumn) == SQLITE_NULL ? nil : try authors.author(sqlite3_column_int64(row, authorColumn), in: db)
                let post = try shape.read(row, location, author)
                found.append((NearestFirst.Rank(distance: distance, objectId: shape.objectId(post)), post))
            }
            start = end
        }
        found.sort { $0.rank < $1.rank }
        return found
    }
}

/// What the nearest search reads of each post it finds: the query of a batch of candidates'
/// rows (their ids bound to its `candidateSlots` parameters; latitude in column 3, longitude
/// in 4, the author's row id in `authorColumn`), how a row and its author become a result, and
/// its objectId (ties in distance go by it). `anywall nearby` reads the few columns a `Post`
/// shows; the server reads whole records.
struct FoundShape<Found> {
    let sql: String
    let read: (SQLiteStatement, GeoPoint, StoredUser?) throws -> Found
    let objectId: (Found) -> String

    static var post: FoundShape<Post> {
        FoundShape<Post>(sql: postCandidatesQuery, read: { row, location, author in
                Post(objectId: columnText(row, 1) ?? "", text: columnText(row, 2) ?? "", location: location,
                     author: author.map { $0.name ?? $0.username }, createdAt: EmbeddedWall.date(millis: sqlite3_column_int64(row, 5)),
                     score: Int(sqlite3_column_int64(row, 7)), replyCount: Int(sqlite3_column_int64(row, 8)),
                     // Only the author's search finds a removed post (the index lets only them read it).
                     removed: columnText(row, 9).flatMap(PostRemoval.init(rawValue:)))
            }, objectId: { $0.objectId })
    }

    static var storedPost: FoundShape<StoredPost> {
        FoundShape<StoredPost>(sql: storedPostCandidatesQuery, read: storedPost, objectId: { $0.objectId })
    }

    /// A post from a row of `storedPostCandidatesQuery`.
    private static func storedPost(_ row: SQLiteStatement, _ location: GeoPoint, _ author: StoredUser?) throws -> StoredPost {
        let createdAt = EmbeddedWall.date(millis: sqlite3_column_int64(row, 5))
        let updatedAt = sqlite3_column_type(row, 7) == SQLITE_NULL ? createdAt : EmbeddedWall.date(millis: sqlite3_column_int64(row, 7))
        return StoredPost(objectId: columnText(row, 1) ?? "", text: columnText(row, 2) ?? "", location: location, author: author, createdAt: createdAt,
                          updatedAt: updatedAt, access: PostAccess(storedReaders: columnText(row, 8), storedWriters: columnText(row, 9), author: author?.objectId),
                          fields: try StoredFields.fields(columnText(row, 10)), score: Int(sqlite3_column_int64(row, 11)),
                          replyCount: Int(sqlite3_column_int64(row, 12)), reportCount: Int(sqlite3_column_int64(row, 14)),
                          removed: columnText(row, 13).flatMap(PostRemoval.init(rawValue:)),
                          restoredAt: sqlite3_column_type(row, 15) == SQLITE_NULL ? nil : EmbeddedWall.date(millis: sqlite3_column_int64(row, 15)))
    }
}

/// The candidates' slots of a `FoundShape`'s query: one run for the 20 nearest and their margin
/// (instructions a query at 100 city places: 16 slots 446,600, 24 439,500, 32 441,500, 48 448,100).
private let candidateSlots = 24

/// The column of a candidate's row that holds its author's row id (`AuthorCache` gives the author).
private let authorColumn: Int32 = 6

/// The rows of up to `candidateSlots` posts by id, the given columns after the seven every shape reads.
/// The ids come first, one lookup of each (a CROSS JOIN keeps SQLite to that order).
private func candidatesQuery(more columns: String = "") -> String {
    let ids = Array(repeating: "(?)", count: candidateSlots).joined(separator: ", ")
    return """
        WITH candidate(id) AS (VALUES \(ids))
        SELECT post.id, post.objectId, post.text, post.latitude, post.longitude, post.createdAt, post.userId\(columns)
        FROM candidate CROSS JOIN post ON post.id = candidate.id
        """
}

private let postCandidatesQuery = candidatesQuery(more: ", post.score, post.replyCount, post.removed")

private let storedPostCandidatesQuery = candidatesQuery(more: ", post.updatedAt, post.readers, post.writers, post.fields, post.score, post.replyCount, post.removed, post.reportCount, post.restoredAt")
