import Foundation

/// A latitude/longitude rectangle that never crosses the antimeridian
/// (`minLongitude <= maxLongitude` always holds).
public struct BoundingBox: Equatable, Sendable {
    public var minLatitude: Double
    public var maxLatitude: Double
    public var minLongitude: Double
    public var maxLongitude: Double

    public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.maxLatitude = maxLatitude
        self.minLongitude = minLongitude
        self.maxLongitude = maxLongitude
    }

    /// Whether the point lies in the box (edges included).
    public func contains(_ p: GeoPoint) -> Bool {
        p.latitude >= minLatitude && p.latitude <= maxLatitude
            && p.longitude >= minLongitude && p.longitude <= maxLongitude
    }

    /// The part of this box inside `other`, or nil when they do not meet.
    public func intersection(_ other: BoundingBox) -> BoundingBox? {
        let box = BoundingBox(minLatitude: max(minLatitude, other.minLatitude), maxLatitude: min(maxLatitude, other.maxLatitude),
                              minLongitude: max(minLongitude, other.minLongitude), maxLongitude: min(maxLongitude, other.maxLongitude))
        return box.minLatitude <= box.maxLatitude && box.minLongitude <= box.maxLongitude ? box : nil
    }

    /// The boxes that together cover every point within `radius` of `center`.
    ///
    /// One box usually; two when the circle crosses the antimeridian (one on each side);
    /// one box spanning every longitude when the circle covers a pole. The boxes may hold
    /// points farther than `radius` (corners): callers filter by exact distance.
    public static func covering(center: GeoPoint, radius: Distance) -> [BoundingBox] {
        let angular = radius.meters / GreatCircle.earthRadius.meters
        let lat = GreatCircle.radians(center.latitude)
        let minLat = GreatCircle.degrees(lat - angular)
        let maxLat = GreatCircle.degrees(lat + angular)
        if angular >= .pi || maxLat >= 90 || minLat <= -90 {
            // The circle covers a pole: every meridian passes through it.
            return spanning(longitude: center.longitude, halfWidth: 180, minLatitude: max(minLat, -90), maxLatitude: min(maxLat, 90))
        }
        // Widest longitude reach of the circle, at the latitude where it touches its meridians.
        let deltaLon = GreatCircle.degrees(asin(min(1, sin(angular) / cos(lat))))
        return spanning(longitude: center.longitude, halfWidth: deltaLon, minLatitude: minLat, maxLatitude: maxLat)
    }

    /// The area of the box on the unit sphere (steradians).
    var sphereArea: Double {
        GreatCircle.radians(maxLongitude - minLongitude)
            * (sin(GreatCircle.radians(maxLatitude)) - sin(GreatCircle.radians(minLatitude)))
    }

    /// The boxes over `minLatitude...maxLatitude` and `halfWidth` degrees either side of
    /// `longitude`: every longitude when that is 180 or more, two boxes when the span crosses the
    /// antimeridian.
    static func spanning(longitude: Double, halfWidth: Double, minLatitude: Double, maxLatitude: Double) -> [BoundingBox] {
        guard halfWidth < 180 else {
            return [BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: 180)]
        }
        let west = longitude - halfWidth, east = longitude + halfWidth
        if west < -180 {
            return [BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west + 360, maxLongitude: 180),
                    BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: east)]
        }
        if east > 180 {
            return [BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west, maxLongitude: 180),
                    BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: east - 360)]
        }
        return [BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west, maxLongitude: east)]
    }
}
