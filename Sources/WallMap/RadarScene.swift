import Foundation
import WallDomain

/// What a radar map shows: the posts as seen from the fix, the filter radius, and how the reader
/// reads distances.
public struct RadarScene: Sendable {
    /// Nearest first, as `nearby` lists them; hidden posts carry no text.
    public var posts: [NearbyPost]
    public var fix: Fix
    public var filterRadius: Distance
    public var units: UnitSystem
    /// The time the fix's age is measured to.
    public var now: Date

    public init(posts: [NearbyPost], fix: Fix, filterRadius: Distance, units: UnitSystem, now: Date) {
        self.posts = posts
        self.fix = fix
        self.filterRadius = filterRadius
        self.units = units
        self.now = now
    }
}
