import Synchronization
import WallDomain
import WallStorage

/// How a `PostQuery` is run on a store, by the cheapest way that gives Parse's answer (each store
/// follows the plan with its own reads: `SQLiteWallStore`, `PostgresWallStore`):
/// - `$nearSphere` alone: the store's nearest-posts search (the one `nearby` uses);
/// - no place asked: the database does the order, skip, limit and count;
/// - areas: candidates from the store's index over the area's boxes (or the near distance), then
///   the exact test in Swift, the same on every store, so every store includes the same posts.
package struct PostSearch {
    let query: PostQuery
    let plan: Plan

    package init(query: PostQuery) {
        self.query = query
        plan = Self.plan(for: query)
    }

    /// How a store is read for the query.
    package enum Plan {
        case placeless
        case nearest(WallQuery)
        case scan(boxes: [BoundingBox]?, near: (center: GeoPoint, distance: Distance)?)
    }

    /// `parent` `$exists: false`, which the CLI asks with every nearby: the nearest search never
    /// finds a reply, so it answers that too.
    private static let threadsOnly = RecordCondition.not(.exists(.parent))

    private static func plan(for query: PostQuery) -> Plan {
        let filter = query.filter
        if filter.isPlaceless { return .placeless }
        // (A limit `WallQuery` refuses is past the range checked here; a scan would answer it too.)
        if let near = filter.near, filter.areas.isEmpty, !filter.condition.constrainsFields || filter.condition == threadsOnly,
           query.order.isEmpty, !query.count,
           query.skip + query.limit <= WallQuery.limitRange.upperBound,
           let nearest = try? WallQuery(center: near.center, searchDistance: near.maxDistance ?? WallQuery.wholeEarth,
                                        limit: max(1, query.skip + query.limit)) {
            return .nearest(nearest)
        }
        // Candidates are those in the first area's boxes, else within the near distance, else (a
        // `$nearSphere` without a distance, among other constraints) all posts.
        if let area = filter.areas.first { return .scan(boxes: area.boxes, near: nil) }
        if let near = filter.near, let distance = near.maxDistance { return .scan(boxes: nil, near: (near.center, distance)) }
        return .scan(boxes: nil, near: nil)
    }

    /// Whether the query reads a limit's worth of posts and the index around them (a nearest
    /// search), not every post it matches (a scan, a count), and that limit, skipped posts
    /// included, is at most Parse's default page: on bench-wall's million posts the nearest 20 or
    /// 100 hold a loop a few milliseconds at most, even at the slowest places over the earth (from
    /// sparse posts into a city's, by a pole), the nearest 1,000 several times longer (docs/performance.md).
    package var isBounded: Bool {
        if case .nearest(let nearest) = plan { return nearest.limit <= PostQuery.defaultLimit }
        return false
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
