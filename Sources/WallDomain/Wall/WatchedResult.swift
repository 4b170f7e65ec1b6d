import Foundation

/// What a watch has printed so far, and the events that bring it to a new result: the one place
/// both `--watch` loops (asking again, and listening to a subscription) apply the filter radius and
/// the diff, so that they print alike.
public struct WatchedResult: Sendable {
    private let filterRadius: Distance
    /// The posts as last printed, seen from where the reader was then.
    public private(set) var shown: [NearbyPost] = []

    public init(filterRadius: Distance) {
        self.filterRadius = filterRadius
    }

    /// The events that turn what was printed into `posts` (a query's result, in its order) seen from `fix`.
    public mutating func show(_ posts: [Post], from fix: Fix) -> [ChangeEvent] {
        let current = posts.seen(from: fix.point, filterRadius: filterRadius)
        let events = ResultMerge.changes(from: shown, to: current, at: fix.time ?? Date(),
                                         place: fix.point, filterRadius: filterRadius)
        shown = current
        return events
    }
}
