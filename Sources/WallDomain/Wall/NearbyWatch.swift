import Foundation

/// `nearby --watch` as a sequence of fixes: what changes as you move, and only that.
///
/// The backend is asked again when the fix has moved `minMove` from where it was last asked,
/// and every `interval` so that others' new posts appear; between queries the filter radius is
/// applied to the posts held from the last one at every fix, so walking toward a post reveals it
/// without a query. The first query reports every post as `added`. When the wall is out of reach,
/// the error is thrown and the held posts stay; the next query is tried `retryDelay` later.
public final class NearbyWatch {
    /// How far the fix must move before the backend is asked again (Anywall: 10 m).
    public let minMove: Distance
    /// How often the backend is asked again anyway (Anywall: 30 s).
    public let interval: Duration

    private let backend: WallBackend
    private let searchDistance: Distance
    private let limit: Int
    private let area: Area?
    private var posts: [Post] = []
    private var result: WatchedResult
    private var askedAt: GeoPoint?
    private var latest: Fix?
    /// When the backend is to be asked again if nothing moves; nil before the first fix.
    public private(set) var nextQuery: ContinuousClock.Instant?
    /// Not before this, after a failed query.
    private var retryAt: ContinuousClock.Instant?
    /// How long to wait after a failed query, at most: soon enough to notice the server is back.
    public static let retryDelay = Duration.seconds(5)

    /// Names the wall for messages.
    public var wallDescription: String { backend.description }

    public init(backend: WallBackend, searchDistance: Distance, limit: Int, filterRadius: Distance,
                minMove: Distance, interval: Duration, within area: Area? = nil) {
        self.backend = backend
        self.area = area
        self.searchDistance = searchDistance
        self.limit = limit
        result = WatchedResult(filterRadius: filterRadius)
        self.minMove = minMove
        self.interval = interval
    }

    /// The events a new fix brings.
    public func update(with fix: Fix, now: ContinuousClock.Instant) throws -> [ChangeEvent] {
        latest = fix
        if let askedAt, fix.point.distance(to: askedAt) < minMove {
            return show(posts, from: fix)
        }
        if let retryAt, now < retryAt {
            return show(posts, from: fix)
        }
        return try ask(from: fix, now: now)
    }

    /// The events of asking the backend again from the latest fix, when `interval` has passed.
    public func refresh(now: ContinuousClock.Instant) throws -> [ChangeEvent] {
        guard let latest else { return [] }
        return try ask(from: latest, now: now)
    }

    private func ask(from fix: Fix, now: ContinuousClock.Instant) throws -> [ChangeEvent] {
        do {
            posts = try backend.nearby(WallQuery(center: fix.point, searchDistance: searchDistance, limit: limit, within: area))
        } catch let error as AnywallError where error.isOutage {
            retryAt = now + min(interval, Self.retryDelay)
            nextQuery = retryAt
            throw error
        }
        retryAt = nil
        askedAt = fix.point
        nextQuery = now + interval
        return show(posts, from: fix)
    }

    private func show(_ posts: [Post], from fix: Fix) -> [ChangeEvent] {
        result.show(posts, from: fix)
    }
}
