import Foundation
import WallDomain

/// The world's coastline, drawn only where it is honest: Natural Earth's 1:110m lines have a median
/// segment of about 63 km, so a view narrower than `narrowestView` would show lines that miss the
/// real shore by more than the whole city.
enum Coastline {
    static let lines = GeoLines(wkb: Data(base64Encoded: naturalEarthCoastlineWKB) ?? Data())
    /// Views at least this wide (east to west) get the coastline.
    static let narrowestView = Distance.meters(200_000)
    /// What the map says beside it, so nobody takes it for a survey.
    static func label(in style: MapStyle) -> String {
        style == .ascii ? "coast ~1:110m" : "coast ≈1:110m"
    }

    /// The longitude/latitude boxes that hold a view of `halfWidth` east and west of `center` and
    /// `halfHeight` north and south: two when it crosses the antimeridian, the whole round when it
    /// reaches a pole or is wider than the earth.
    static func boxes(around center: GeoPoint, halfWidth: Distance, halfHeight: Distance) -> [BoundingBox] {
        let metersPerDegree = GreatCircle.earthRadius.meters * .pi / 180
        let south = max(-90, center.latitude - halfHeight.meters / metersPerDegree)
        let north = min(90, center.latitude + halfHeight.meters / metersPerDegree)
        let halfSpan = halfWidth.meters / (metersPerDegree * cos(center.latitude * .pi / 180))
        guard halfSpan < 180, south > -90, north < 90 else {
            return [BoundingBox(minLatitude: south, maxLatitude: north, minLongitude: -180, maxLongitude: 180)]
        }
        let west = center.longitude - halfSpan, east = center.longitude + halfSpan
        func box(_ west: Double, _ east: Double) -> BoundingBox {
            BoundingBox(minLatitude: south, maxLatitude: north, minLongitude: west, maxLongitude: east)
        }
        if west < -180 { return [box(west + 360, 180), box(-180, east)] }
        if east > 180 { return [box(west, 180), box(-180, east - 360)] }
        return [box(west, east)]
    }
}
