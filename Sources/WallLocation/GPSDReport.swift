import AnywallSupport
import Foundation
import WallDomain

/// The part of a gpsd JSON report anywall reads: a TPV (time-position-velocity) report.
/// Other classes (VERSION, DEVICES, SKY...) decode too and are ignored by their class.
package struct GPSDReport: Decodable {
    let `class`: String
    /// 0 or 1: no fix; 2: 2D; 3: 3D.
    let mode: Int?
    let lat: Double?
    let lon: Double?
    let time: String?
    /// Estimated horizontal position error, metres (95 %).
    let eph: Double?
    /// Estimated longitude and latitude errors, metres (95 %), for gpsd versions without `eph`.
    let epx: Double?
    let epy: Double?

    /// What a report says about position: a fix, no fix, or nothing (not a TPV).
    package enum Meaning {
        case fix(GeoPoint, time: Date?, accuracy: Distance?)
        case noFix
        case other
    }

    package var meaning: Meaning {
        guard self.class == "TPV" else { return .other }
        guard let mode, mode >= 2, let lat, let lon, let point = try? GeoPoint(latitude: lat, longitude: lon) else {
            return .noFix
        }
        let accuracy = eph ?? epx.flatMap { x in epy.map { max(x, $0) } }
        return .fix(point, time: time.flatMap(ParseDate.date(from:)), accuracy: accuracy.map(Distance.meters))
    }
}
