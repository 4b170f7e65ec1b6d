import WallDomain

/// A region a query restricts posts to: `$within/$box`, `$geoWithin/$polygon` or
/// `$geoWithin/$centerSphere`.
public enum WhereArea: Equatable, Sendable {
    /// Parse's box: its corners in either order, never wrapping the antimeridian (as MongoDB
    /// reads it; a client sends two boxes for a region across 180°).
    case box(BoundingBox)
    /// A polygon on the longitude/latitude plane, edges included, as MongoDB and PostgreSQL test
    /// it; written as its outer ring (the client checks holes itself).
    case polygon(Area)
    /// Everything within a great-circle distance of a point (this one does wrap).
    case circle(center: GeoPoint, radius: Distance)

    /// Boxes that together hold the whole area, to find candidates by the wall's index.
    public var boxes: [BoundingBox] {
        switch self {
        case .box(let box): return [box]
        case .polygon(let polygon): return polygon.boxes
        case .circle(let center, let radius): return BoundingBox.covering(center: center, radius: radius)
        }
    }

    /// Whether `point` is in the area (edges included).
    public func covers(_ point: GeoPoint) -> Bool {
        switch self {
        case .box(let box): return box.contains(point)
        case .polygon(let polygon): return polygon.covers(point)
        case .circle(let center, let radius): return center.distance(to: point) <= radius
        }
    }

    /// The operator and its argument, as they stand in a `location` constraint.
    var constraint: (name: String, argument: JSONValue) {
        switch self {
        case .box(let box):
            // Parse's box: south-west corner, then north-east.
            let corners = [AreaVertex(latitude: box.minLatitude, longitude: box.minLongitude),
                           AreaVertex(latitude: box.maxLatitude, longitude: box.maxLongitude)]
            return ("$within", .object(["$box": .array(corners.map { ParseGeoPoint($0).json })]))
        case .polygon(let area):
            let ring = area.parts.first?.shell.dropLast() ?? []
            return ("$geoWithin", .object(["$polygon": .array(ring.map { ParseGeoPoint($0).json })]))
        case .circle(let center, let radius):
            let radians = radius.meters / GreatCircle.earthRadius.meters
            return ("$geoWithin", .object(["$centerSphere": .array([.array([.number(center.longitude), .number(center.latitude)]),
                                                                    .number(radians)])]))
        }
    }
}
