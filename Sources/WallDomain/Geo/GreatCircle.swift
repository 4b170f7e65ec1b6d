import Foundation

/// Great-circle geometry on a sphere of radius 6371 km, the sphere Parse Server uses for
/// `$maxDistanceInKilometers`, so every backend includes and excludes the same posts.
public enum GreatCircle {
    /// The mean Earth radius every distance in anywall is measured on.
    public static let earthRadius = Distance.kilometers(6371)

    /// The great-circle distance between two points (haversine formula, stable for short distances).
    public static func distance(from a: GeoPoint, to b: GeoPoint) -> Distance {
        .meters(angle(from: a, to: b) * earthRadius.meters)
    }

    /// The distance from a point to raw coordinates read from storage (already valid), without
    /// building a `GeoPoint` for each candidate of a scan.
    package static func distance(from a: GeoPoint, latitude: Double, longitude: Double) -> Distance {
        .meters(angle(a.latitude, a.longitude, latitude, longitude) * earthRadius.meters)
    }

    /// The central angle between two points, in radians.
    static func angle(from a: GeoPoint, to b: GeoPoint) -> Double {
        angle(a.latitude, a.longitude, b.latitude, b.longitude)
    }

    private static func angle(_ latitudeA: Double, _ longitudeA: Double, _ latitudeB: Double, _ longitudeB: Double) -> Double {
        let lat1 = radians(latitudeA), lat2 = radians(latitudeB)
        let dLat = lat2 - lat1
        let dLon = radians(longitudeB - longitudeA)
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * asin(min(1, sqrt(h)))
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}

extension GeoPoint {
    /// The great-circle distance to another point.
    public func distance(to other: GeoPoint) -> Distance {
        GreatCircle.distance(from: self, to: other)
    }
}
