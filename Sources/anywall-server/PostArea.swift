import AnywallCore

/// A region a query restricts posts to: `$within/$box`, `$geoWithin/$polygon` or
/// `$geoWithin/$centerSphere`.
enum PostArea {
    /// Parse's box: its corners in either order, never wrapping the antimeridian (as MongoDB
    /// reads it; a client sends two boxes for a region across 180°).
    case box(BoundingBox)
    /// A polygon on the longitude/latitude plane, edges included, as MongoDB and PostgreSQL test it.
    case polygon(Area)
    /// Everything within a great-circle distance of a point (this one does wrap).
    case circle(center: GeoPoint, radius: Distance)

    /// Boxes that together hold the whole area, to find candidates by the wall's index.
    var boxes: [BoundingBox] {
        switch self {
        case .box(let box): return [box]
        case .polygon(let polygon): return polygon.boxes
        case .circle(let center, let radius): return BoundingBox.covering(center: center, radius: radius)
        }
    }

    /// Whether `point` is in the area (edges included).
    func covers(_ point: GeoPoint) -> Bool {
        switch self {
        case .box(let box): return box.contains(point)
        case .polygon(let polygon): return polygon.covers(point)
        case .circle(let center, let radius): return center.distance(to: point) <= radius
        }
    }
}
