import Foundation
import WallDomain

/// A local equirectangular projection around a centre: metres east and north of it.
///
/// Longitude differences are scaled by cos(latitude of the centre), or circles squash 2:1 at 60°N;
/// they are taken the short way round, so a view across the antimeridian stays in one piece. Over a
/// city this equals Web Mercator to within 0.03 %.
struct MapProjection {
    let center: GeoPoint
    private let metersPerDegreeNorth: Double
    private let metersPerDegreeEast: Double

    init(center: GeoPoint) {
        self.center = center
        metersPerDegreeNorth = GreatCircle.earthRadius.meters * .pi / 180
        metersPerDegreeEast = metersPerDegreeNorth * cos(center.latitude * .pi / 180)
    }

    /// The point's offset from the centre, as (east, north).
    func offset(of point: GeoPoint) -> (east: Distance, north: Distance) {
        offset(latitude: point.latitude, longitude: point.longitude)
    }

    /// The offset of a place given in degrees, which may lie on a pole or the antimeridian (a coastline's vertex).
    func offset(latitude: Double, longitude: Double) -> (east: Distance, north: Distance) {
        var longitude = longitude - center.longitude
        // -180 <= longitude < 180: 179.9°E seen from 179.9°W is 0.2° west, not 359.8° east.
        longitude = (longitude + 540).truncatingRemainder(dividingBy: 360) - 180
        return (.meters(longitude * metersPerDegreeEast), .meters((latitude - center.latitude) * metersPerDegreeNorth))
    }

    /// The bearing of the point, in degrees clockwise from north, as the map shows it.
    func bearing(of point: GeoPoint) -> Double {
        let (east, north) = offset(of: point)
        let degrees = atan2(east.meters, north.meters) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The longitude/latitude boxes that hold the view `halfWidth` east and west of the centre and
    /// `halfHeight` north and south: two when it crosses the antimeridian, the whole round when it
    /// reaches a pole or is wider than the earth.
    func boxes(halfWidth: Distance, halfHeight: Distance) -> [BoundingBox] {
        let south = max(-90, center.latitude - halfHeight.meters / metersPerDegreeNorth)
        let north = min(90, center.latitude + halfHeight.meters / metersPerDegreeNorth)
        let halfSpan = halfWidth.meters / metersPerDegreeEast
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
