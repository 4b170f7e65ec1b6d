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
        var matching = try candidates(wall).filter { post in
            filter.areas.allSatisfy { $0.covers(post.location) }
                && (filter.near.map { near in near.maxDistance.map { near.center.distance(to: post.location) <= $0 } ?? true } ?? true)
        }
        if !query.order.isEmpty {
            matching.sort { query.order.precedes($0, $1) ?? false }
        } else if let center = filter.near?.center {
            matching.sort { (center.distance(to: $0.location), $0.objectId) < (center.distance(to: $1.location), $1.objectId) }
        }
        let page = Array(matching.dropFirst(query.skip).prefix(query.limit))
        return (page, query.count ? matching.count : nil)
    }

    /// Every post that may match: those in the first area's boxes, else within the near
    /// distance's boxes, else (a `$nearSphere` without a distance, among other constraints) all.
    private func candidates(_ wall: EmbeddedWall) throws -> [StoredPost] {
        let filter = query.filter
        if let area = filter.areas.first {
            return try wall.storedPosts(inAny: area.boxes, objectIds: filter.objectIds)
        }
        if let near = filter.near, let distance = near.maxDistance {
            return try wall.storedPosts(inAny: BoundingBox.covering(center: near.center, radius: distance), objectIds: filter.objectIds)
        }
        return try wall.storedPosts(objectIds: filter.objectIds, order: [], skip: 0, limit: Int.max)
    }
}
