import ParseWire
import Synchronization
import WallDomain
import WallStorage

/// How a `PostQuery` is run on a store, by the cheapest way that gives Parse's answer (each store
/// follows the plan with its own reads: `SQLiteWallStore`, `PostgresWallStore`):
/// - `$nearSphere` alone: the store's nearest-posts search (the one `nearby` uses), then, when the
///   answer may hold posts that search leaves out, a scan for those around it (`leftOutSearch`);
/// - no place asked: the database does the order, skip, limit and count;
/// - areas: candidates from the store's index over the area's boxes (or the near distance), then
///   the exact test in Swift, the same on every store, so every store includes the same posts.
package struct PostSearch {
    let query: PostQuery
    let plan: Plan

    package init(query: PostQuery) {
        self.init(query: query, plan: Self.plan(for: query))
    }

    private init(query: PostQuery, plan: Plan) {
        self.query = query
        self.plan = plan
    }

    /// How a store is read for the query.
    package enum Plan {
        case placeless
        /// The nearest search, and the condition of the posts it leaves out that the answer may
        /// hold (nil: none).
        case nearest(WallQuery, leftOut: RecordCondition?)
        /// Every post that may lie in one of `boxes` (nil: anywhere), tested exactly; with `near`,
        /// the boxes are those covering its circle, which a store may test itself too.
        case scan(boxes: [BoundingBox]?, near: (center: GeoPoint, distance: Distance)?)
    }

    /// `parent` `$exists: false`, which the CLI asks with every nearby: the nearest search never
    /// finds a reply, so it answers that too.
    private static let threadsOnly = RecordCondition.not(.exists(.parent))

    /// Whether the plan depends on the reader being a moderator (`PostQuery.readerModerates`): the
    /// nearest search shows a removed post to its author alone, and a find shows it to moderators too.
    package static func asksWhetherReaderModerates(_ query: PostQuery) -> Bool {
        query.reader != .master && nearest(for: query) != nil
    }

    private static func plan(for query: PostQuery) -> Plan {
        let filter = query.filter
        if filter.isPlaceless { return .placeless }
        if let nearest = nearest(for: query) {
            // Replies stay out of the nearest search's indexes, and a removed post is there for its author.
            let leftOut = (filter.condition == threadsOnly ? [] : [RecordCondition.exists(.parent)])
                + (query.readerModerates ? [.exists(.removed)] : [])
            return .nearest(nearest, leftOut: leftOut.count > 1 ? .any(leftOut) : leftOut.first)
        }
        // Candidates are those in the first area's boxes, else within the near distance, else (a
        // `$nearSphere` without a distance, among other constraints) all posts.
        if let area = filter.areas.first { return .scan(boxes: area.boxes, near: nil) }
        if let near = filter.near, let distance = near.maxDistance { return scan(near: near.center, within: distance) }
        return .scan(boxes: nil, near: nil)
    }

    /// The nearest search that answers `query`: a `$nearSphere` asking nothing else of the posts
    /// but to be thread posts, nearest first, without a count.
    private static func nearest(for query: PostQuery) -> WallQuery? {
        let filter = query.filter
        // (A limit `WallQuery` refuses is past the range checked here; a scan would answer it too.)
        guard let near = filter.near, filter.areas.isEmpty, !filter.condition.constrainsFields || filter.condition == threadsOnly,
              query.order.isEmpty, !query.count, query.skip + query.limit <= WallQuery.limitRange.upperBound else { return nil }
        return try? WallQuery(center: near.center, searchDistance: near.maxDistance ?? WallQuery.wholeEarth, limit: max(1, query.skip + query.limit))
    }

    /// The scan for the posts a nearest search leaves out that could still be on the page: those
    /// no farther than the last of `nearest` (the search's answer) when it filled the page, else
    /// within the search's distance; nil when the plan leaves nothing out.
    func leftOutSearch(after nearest: [StoredPost]) -> PostSearch? {
        guard case .nearest(let search, let leftOut?) = plan else { return nil }
        let reach = nearest.count >= search.limit ? nearest.last.map { search.center.distance(to: $0.location) } ?? search.searchDistance
                                                  : search.searchDistance
        var scanned = query
        scanned.filter.near = WhereClause.Near(center: search.center, maxDistance: reach)
        scanned.filter.condition = query.filter.condition.and(leftOut)
        scanned.skip = 0
        scanned.limit = search.limit
        return PostSearch(query: scanned, plan: reach < WallQuery.wholeEarth ? Self.scan(near: search.center, within: reach) : .scan(boxes: nil, near: nil))
    }

    /// The scan of the posts within `distance` of `center`: the boxes that cover the circle, on
    /// both stores' location indexes.
    private static func scan(near center: GeoPoint, within distance: Distance) -> Plan {
        .scan(boxes: BoundingBox.covering(center: center, radius: distance), near: (center, distance))
    }

    /// The nearest search, when the only posts it leaves out that the answer may hold are replies:
    /// a find near a place that does not ask for thread posts alone (a stock Parse client's).
    package var nearestLeavingOutReplies: WallQuery? {
        guard case .nearest(let nearest, let leftOut?) = plan, leftOut == .exists(.parent) else { return nil }
        return nearest
    }

    /// The page from a nearest search's answer and the posts its `leftOutSearch` found.
    func page(nearest: [StoredPost], leftOut: [StoredPost]) -> [StoredPost] {
        var page = PostPage<StoredPost>(keeping: query.skip + query.limit, precedes: Self.nearestFirst(query))
        var seen = Set<String>()
        // An author's own removed post is found both ways.
        for post in nearest + leftOut where seen.insert(post.objectId).inserted { page.offer(post) }
        return Array(page.posts.dropFirst(query.skip))
    }

    /// Whether the query reads a limit's worth of posts and the index around them (a nearest
    /// search that leaves nothing out), not every post it matches (a scan, a count), and that limit, skipped posts
    /// included, is at most Parse's default page: on bench-wall's million posts the nearest 20 or
    /// 100 hold a loop a few milliseconds at most, even at the slowest places over the earth (from
    /// sparse posts into a city's, by a pole), the nearest 1,000 several times longer (docs/performance.md).
    package var isBounded: Bool {
        if case .nearest(let nearest, nil) = plan { return Self.isBounded(nearest) }
        return false
    }

    /// Whether a nearest search reads a bounded number of posts (`isBounded`).
    package static func isBounded(_ nearest: WallQuery) -> Bool {
        nearest.limit <= PostQuery.defaultLimit
    }

    /// What the query asks of the posts' fields, and that its reader may read them.
    var condition: RecordCondition {
        query.filter.condition.and(query.reader.condition)
    }

    /// A scan's page and count, before any candidate is offered.
    func scan() -> PostScan {
        PostScan(query)
    }

    /// The order of a scan's page by the candidates' places alone.
    var placeOrder: (@Sendable (PlacedPost, PlacedPost) -> Bool)? {
        Self.nearestFirst(query)
    }

    /// Nearest first around the query's `$nearSphere`, or nil without one (the order posts were left).
    static func nearestFirst<Placed: NearestFirst.Placed>(_ query: PostQuery) -> (@Sendable (Placed, Placed) -> Bool)? {
        guard let near = query.filter.near else { return nil }
        let order = NearestFirst(around: near.center)
        return { order.precedes($0, $1) }
    }
}

/// The exact test and the page of a scan: every candidate is offered once, from a cursor, and
/// only the page is kept, so a world-sized area or a deep skip costs time, never memory the size
/// of the wall. Offered posts come from one reader at a time; the lock makes that safe to share.
final class PostScan: Sendable {
    private let query: PostQuery
    private let state: Mutex<(page: PostPage<StoredPost>, count: Int)>

    init(_ query: PostQuery) {
        self.query = query
        state = Mutex((PostPage(keeping: query.skip + query.limit, precedes: Self.precedence(query)), 0))
    }

    func offer(_ post: StoredPost) {
        guard query.filter.admits(post.location) else { return }
        state.withLock {
            $0.count += 1
            $0.page.offer(post)
        }
    }

    var result: (posts: [StoredPost], count: Int?) {
        state.withLock { (Array($0.page.posts.dropFirst(query.skip)), query.count ? $0.count : nil) }
    }

    /// The order of the page: `order` when asked, else nearest first around a `$nearSphere`,
    /// else none (the order posts were left).
    private static func precedence(_ query: PostQuery) -> (@Sendable (StoredPost, StoredPost) -> Bool)? {
        if !query.order.isEmpty {
            let order = query.order
            return { order.precedes($0, $1) ?? false }
        }
        return PostSearch.nearestFirst(query)
    }
}

/// The first `capacity` posts of a stream in an order (or as they come, without one), kept in
/// memory bounded by twice the capacity whatever the stream's length: whole posts, or their places.
package struct PostPage<Post: Sendable>: Sendable {
    private let capacity: Int
    private let precedes: (@Sendable (Post, Post) -> Bool)?
    private var kept: [Post] = []

    package init(keeping capacity: Int, precedes: (@Sendable (Post, Post) -> Bool)?) {
        self.capacity = capacity
        self.precedes = precedes
    }

    package mutating func offer(_ post: Post) {
        guard let precedes else {
            if kept.count < capacity { kept.append(post) }
            return
        }
        kept.append(post)
        // Sorting only when twice full keeps the work O(n log capacity) over the stream.
        if kept.count >= 2 * max(capacity, 1) { trim(precedes) }
    }

    /// How many posts are held now: never more than twice the capacity.
    package var held: Int { kept.count }

    /// The kept posts, in order.
    package var posts: [Post] {
        guard let precedes else { return kept }
        var page = self
        page.trim(precedes)
        return page.kept
    }

    private mutating func trim(_ precedes: (Post, Post) -> Bool) {
        kept.sort(by: precedes)
        if kept.count > capacity { kept.removeLast(kept.count - capacity) }
    }
}
