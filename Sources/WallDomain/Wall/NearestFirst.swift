import Foundation

/// Anywall's order of posts around a place: nearest first by great-circle distance, ties by
/// objectId. Every wall lists posts in it (the embedded wall, anywall-server on either store, a
/// Parse Server read through `ParseWall`), so a place shows the same posts in the same order, and a
/// page ends at the same post, whichever wall answers.
public struct NearestFirst: Sendable {
    /// What the order places: a post, or a store's record of one, with its place and objectId.
    public protocol Placed: Sendable {
        var location: GeoPoint { get }
        var objectId: String { get }
    }

    /// A post's rank in the order: its distance from the center, then its objectId.
    public struct Rank: Comparable, Sendable {
        public let distance: Distance
        public let objectId: String

        public init(distance: Distance, objectId: String) {
            self.distance = distance
            self.objectId = objectId
        }

        public static func < (a: Rank, b: Rank) -> Bool {
            (a.distance, a.objectId) < (b.distance, b.objectId)
        }
    }

    public let center: GeoPoint

    public init(around center: GeoPoint) {
        self.center = center
    }

    /// The rank of the post `objectId` at `location`.
    public func rank(_ location: GeoPoint, _ objectId: String) -> Rank {
        Rank(distance: center.distance(to: location), objectId: objectId)
    }

    /// Whether `a` comes before `b`.
    public func precedes(_ a: some Placed, _ b: some Placed) -> Bool {
        rank(a.location, a.objectId) < rank(b.location, b.objectId)
    }
}

extension Post: NearestFirst.Placed {}
extension StoredPost: NearestFirst.Placed {}
