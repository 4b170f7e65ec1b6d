import Foundation

/// `nearby --watch` over a subscription (Parse LiveQuery): the wall says what changes, and nothing
/// is asked again.
///
/// It holds what the subscription matches, a snapshot and then each event, and shows what the
/// asking watch (`NearbyWatch`) would: the `limit` posts of the query nearest its centre, readable
/// within the filter radius from the latest fix, through the same `WatchedResult`. A fix `minMove`
/// or more from the centre moves the centre there: the caller then updates the subscription.
public final class PushedNearby {
    /// How far the fix must move before the subscription follows it (Anywall: 10 m).
    public let minMove: Distance
    /// The question the subscription follows, around its current centre.
    public private(set) var query: WallQuery
    private var matches: [String: Post] = [:]
    /// The latest fix: what the posts are seen from.
    public private(set) var latest: Fix
    private var result: WatchedResult

    /// A watch of `query` (centred on `fix`) that has shown nothing yet.
    public init(query: WallQuery, from fix: Fix, filterRadius: Distance, minMove: Distance) {
        self.query = query
        self.minMove = minMove
        latest = fix
        result = WatchedResult(filterRadius: filterRadius)
    }

    /// The events a new fix brings, and whether the centre moved to it (the subscription must follow).
    public func move(to fix: Fix) -> (events: [ChangeEvent], recentred: Bool) {
        latest = fix
        let recentred = fix.point.distance(to: query.center) >= minMove
        if recentred { query = query.moved(to: fix.point) }
        return (show(), recentred)
    }

    /// The events of a whole new set of matches: a snapshot, or a list read again after the
    /// subscription lost track (diffed against what was printed, so nothing shows twice).
    public func replace(with posts: [Post]) -> [ChangeEvent] {
        matches = Dictionary(posts.map { ($0.objectId, $0) }, uniquingKeysWith: { _, last in last })
        return show()
    }

    /// The events of a post that now matches, new or changed.
    public func put(_ post: Post) -> [ChangeEvent] {
        matches[post.objectId] = post
        return show()
    }

    /// The events of a post that no longer matches (it left the query, or was deleted).
    public func drop(_ objectId: String) -> [ChangeEvent] {
        guard matches.removeValue(forKey: objectId) != nil else { return [] }
        return show()
    }

    private func show() -> [ChangeEvent] {
        let order = NearestFirst(around: query.center)
        let posts = matches.values.filter { query.matches($0.location) }.sorted(by: order.precedes)
        return result.show(Array(posts.prefix(query.limit)), from: latest)
    }
}
