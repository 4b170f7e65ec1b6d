import AnywallSupport
import EmbeddedStore
import ParseWire
import WallDomain

/// Runs a `PostQuery` on the wall, by the cheapest way that gives Parse's answer:
/// - `$nearSphere` alone: the wall's nearest-posts search (the one `nearby` uses);
/// - no place asked: SQL does the order, skip, limit and count;
/// - areas: candidates from the wall's index over the area's boxes, then the exact test.
struct PostSearch {
    let query: PostQuery

    /// The page of posts, and the count of all matching when the query asks for it.
    func run(on wall: EmbeddedWall) throws -> (posts: [StoredPost], count: Int?) {
        let filter = query.filter
        if filter.isPlaceless {
            let posts = query.limit == 0 ? [] : try wall.storedPosts(objectIds: filter.objectIds, order: query.order,
                                                                     skip: query.skip, limit: query.limit)
            return (posts, query.count ? try wall.countPosts(objectIds: filter.objectIds) : nil)
        }
        if let near = filter.near, filter.areas.isEmpty, filter.objectIds == nil, query.order.isEmpty, !query.count,
           query.skip + query.limit <= WallQuery.limitRange.upperBound {
            guard query.limit > 0 else { return ([], nil) }
            let nearest = try wall.nearestPosts(WallQuery(center: near.center, searchDistance: near.maxDistance ?? WallQuery.wholeEarth,
                                                          limit: query.skip + query.limit))
            return (Array(nearest.dropFirst(query.skip)), nil)
        }
        // Every candidate is read once from a cursor, and only the page is kept: a world-sized
        // area or a deep skip costs time, never memory the size of the wall.
        var page = PostPage(keeping: query.skip + query.limit, precedes: precedence)
        var count = 0
        try forEachCandidate(wall) { post in
            guard filter.areas.allSatisfy({ $0.covers(post.location) }),
                  filter.near.map({ near in near.maxDistance.map { near.center.distance(to: post.location) <= $0 } ?? true }) ?? true
            else { return }
            count += 1
            page.offer(post)
        }
        return (Array(page.posts.dropFirst(query.skip)), query.count ? count : nil)
    }

    /// The order of the page: `order` when asked, else nearest first around a `$nearSphere`,
    /// else none (the order posts were left).
    private var precedence: ((StoredPost, StoredPost) -> Bool)? {
        if !query.order.isEmpty {
            let order = query.order
            return { order.precedes($0, $1) ?? false }
        }
        guard let center = query.filter.near?.center else { return nil }
        return { (center.distance(to: $0.location), $0.objectId) < (center.distance(to: $1.location), $1.objectId) }
    }

    /// Hands over every post that may match: those in the first area's boxes, else within the near
    /// distance's boxes, else (a `$nearSphere` without a distance, among other constraints) all.
    private func forEachCandidate(_ wall: EmbeddedWall, _ body: (StoredPost) throws -> Void) throws {
        let filter = query.filter
        if let area = filter.areas.first {
            try wall.forEachStoredPost(inAny: area.boxes, objectIds: filter.objectIds, body)
        } else if let near = filter.near, let distance = near.maxDistance {
            try wall.forEachStoredPost(inAny: BoundingBox.covering(center: near.center, radius: distance), objectIds: filter.objectIds, body)
        } else {
            try wall.forEachStoredPost(inAny: nil, objectIds: filter.objectIds, body)
        }
    }
}

/// The first `capacity` posts of a stream in an order (or as they come, without one), kept in
/// memory bounded by twice the capacity whatever the stream's length.
package struct PostPage {
    private let capacity: Int
    private let precedes: ((StoredPost, StoredPost) -> Bool)?
    private var kept: [StoredPost] = []

    package init(keeping capacity: Int, precedes: ((StoredPost, StoredPost) -> Bool)?) {
        self.capacity = capacity
        self.precedes = precedes
    }

    package mutating func offer(_ post: StoredPost) {
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
    package var posts: [StoredPost] {
        guard let precedes else { return kept }
        var page = self
        page.trim(precedes)
        return page.kept
    }

    private mutating func trim(_ precedes: (StoredPost, StoredPost) -> Bool) {
        kept.sort(by: precedes)
        if kept.count > capacity { kept.removeLast(kept.count - capacity) }
    }
}
