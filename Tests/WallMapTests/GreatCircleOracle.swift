import Foundation
import WallDomain
import WallMap

/// Where a post should land, computed without the renderer's projection: the haversine distance
/// and the initial bearing on the sphere, laid out from the centre cell (a cell twice as tall as wide).
enum GreatCircleOracle {
    static let earthRadius = 6_371_000.0

    static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
        let dPhi = phi2 - phi1, dLambda = (b.longitude - a.longitude) * .pi / 180
        let h = pow(sin(dPhi / 2), 2) + cos(phi1) * cos(phi2) * pow(sin(dLambda / 2), 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// Degrees clockwise from north.
    static func bearing(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        return (atan2(y, x) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
    }

    /// The fractional (column, row) of a point `meters` from the centre along `bearing`.
    static func position(meters: Double, bearing: Double, in frame: MapFrame) -> (x: Double, y: Double) {
        let width = frame.cellWidth.meters
        let theta = bearing * .pi / 180
        return (Double(frame.center.column) + 0.5 + meters * sin(theta) / width,
                Double(frame.center.row) + 0.5 - meters * cos(theta) / (2 * width))
    }

    /// The cell the oracle expects `point` in, seen from `fix`.
    static func cell(of point: GeoPoint, from fix: GeoPoint, in frame: MapFrame) -> CellPosition {
        let (x, y) = position(meters: distance(fix, point), bearing: bearing(fix, point), in: frame)
        return CellPosition(column: Int(x.rounded(.down)), row: Int(y.rounded(.down)))
    }
}
