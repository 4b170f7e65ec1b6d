import Foundation

/// Lines on the earth, such as a coastline, kept as Well-Known Binary and cut by GEOS to the part a
/// view needs. Their vertices are `AreaVertex`es because a line may end on the antimeridian, where
/// no `GeoPoint` lies.
public struct GeoLines: Sendable {
    /// A LineString or MultiLineString, longitude first as WKB has it.
    public let wkb: Data

    public init(wkb: Data) {
        self.wkb = wkb
    }

    /// The pieces of the lines inside each box, as runs of two vertices or more: a line that leaves a
    /// box and comes back is two pieces. Throws when GEOS cannot be loaded or cannot read the lines.
    public func pieces(within boxes: [BoundingBox]) throws -> [[AreaVertex]] {
        let context = try GEOSContext()
        let lines = try context.geometry(wkb: wkb)
        return try boxes.flatMap { box in
            try lines.clipped(to: box).members.map(\.vertices).filter { $0.count >= 2 }
        }
    }
}
