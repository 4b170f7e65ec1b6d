import Foundation

/// A band of latitudes and the boxes that cover a circle's part in it: a circle's boxes cut into
/// bands when one box would be much larger than the circle.
///
/// Near a pole a circle's box spans every longitude over its whole height (`BoundingBox.covering`),
/// though the circle itself is narrow away from the pole: a circle of 4,000 km at 70°S reaches
/// the pole, and its box is a fifth of the earth, all longitudes south of 34°S. Banded, each band is
/// only as wide as the circle is at its latitudes.
///
/// Bands share their edges, so a point on an edge is in the boxes of two bands: each point
/// belongs to the band that `owns` its latitude, and a scan counts it there only. Bands come
/// nearest the circle's center first.
public struct LatitudeBand: Sendable {
    /// The latitudes the band owns: from `lower` (included) to `upper` (excluded); the southernmost
    /// band owns all below, the northernmost all above.
    public let lower: Double
    public let upper: Double
    /// Boxes covering the circle's points whose latitude the band owns, give or take the margin.
    public let boxes: [BoundingBox]

    /// Whether a point at `latitude` is counted in this band.
    public func owns(latitude: Double) -> Bool {
        latitude >= lower && latitude < upper
    }

    /// How many times larger than the circle its single box may be before it is cut into bands.
    private static var bandingRatio: Double { 1.5 }
    /// How many bands a circle is cut into when it is.
    private static var bandCount: Int { 8 }

    /// The bands covering every point within `radius` of `center`: one band holding
    /// `BoundingBox.covering`'s boxes when they are not much larger than the circle, else
    /// `bandCount` bands of equal height. `margin` (degrees of latitude) is how far a stored
    /// latitude may be from the truth: each band's boxes cover the circle that far beyond its edges.
    public static func bands(covering center: GeoPoint, radius: Distance, margin: Double) -> [LatitudeBand] {
        let boxes = BoundingBox.covering(center: center, radius: radius)
        let whole = LatitudeBand(lower: -.infinity, upper: .infinity, boxes: boxes)
        let angular = radius.meters / GreatCircle.earthRadius.meters
        guard angular < .pi / 2, let first = boxes.first else { return [whole] }
        let circleArea = 2 * .pi * (1 - cos(angular))
        let boxArea = boxes.reduce(0) { $0 + $1.sphereArea }
        // A circle over a pole is banded even when it fills most of its box: read nearest first,
        // its bands let a scan that stops early see the likeliest answers.
        let coversPole = first.minLongitude == -180 && first.maxLongitude == 180
        guard coversPole || boxArea > bandingRatio * circleArea else { return [whole] }
        let south = first.minLatitude, north = first.maxLatitude
        let height = (north - south) / Double(bandCount)
        let bands = (0..<bandCount).map { index in
            let bottom = south + Double(index) * height
            let top = index == bandCount - 1 ? north : south + Double(index + 1) * height
            let reach = halfWidth(of: center, angular: angular, between: max(bottom - margin, -90), and: min(top + margin, 90))
            return LatitudeBand(lower: index == 0 ? -.infinity : bottom, upper: index == bandCount - 1 ? .infinity : top,
                                boxes: BoundingBox.spanning(longitude: center.longitude, halfWidth: reach,
                                                            minLatitude: bottom, maxLatitude: top))
        }
        // Nearest first: a scan that stops early has then seen the posts most likely to be the answer.
        return bands.sorted { $0.latitudeDistance(to: center.latitude) < $1.latitudeDistance(to: center.latitude) }
    }

    /// How many degrees of latitude lie between `latitude` and the band's boxes (0 inside).
    private func latitudeDistance(to latitude: Double) -> Double {
        guard let box = boxes.first else { return .infinity }
        return max(box.minLatitude - latitude, latitude - box.maxLatitude, 0)
    }

    /// The widest the circle reaches east or west of its center (degrees) at any latitude from
    /// `south` to `north`. At one latitude the reach is where the circle crosses that parallel;
    /// over latitudes it rises to one maximum (where the circle touches its meridians) and falls,
    /// or only rises towards a pole inside the circle, so the ends and that one latitude suffice.
    private static func halfWidth(of center: GeoPoint, angular: Double, between south: Double, and north: Double) -> Double {
        let centerLatitude = GreatCircle.radians(center.latitude)
        func reach(_ latitude: Double) -> Double {
            let phi = GreatCircle.radians(latitude)
            let across = cos(phi) * cos(centerLatitude)
            guard across > 1e-12 else { return 180 }
            let cosine = (cos(angular) - sin(phi) * sin(centerLatitude)) / across
            if cosine <= -1 { return 180 }
            return GreatCircle.degrees(acos(min(1, cosine)))
        }
        var widest = max(reach(south), reach(north))
        let touching = sin(centerLatitude) / cos(angular)
        if abs(touching) <= 1 {
            let latitude = GreatCircle.degrees(asin(touching))
            if latitude > south, latitude < north { widest = max(widest, reach(latitude)) }
        }
        return widest
    }
}
