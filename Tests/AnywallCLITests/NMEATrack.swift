import Foundation
import TestSupport

/// NMEA sentences for a made-up walk, as a receiver would send them once a second.
enum NMEATrack {
    /// One epoch: RMC (with the date) then GGA, at `point`, `second` seconds after 10:00:00 UTC on 2026-11-21.
    static func epoch(latitude: Double, longitude: Double, second: Int) -> String {
        let time = String(format: "%02d%02d%02d.00", 10 + second / 3600, second / 60 % 60, second % 60)
        let lat = field(latitude, degreeDigits: 2) + (latitude < 0 ? ",S" : ",N")
        let lon = field(longitude, degreeDigits: 3) + (longitude < 0 ? ",W" : ",E")
        return sentence("GPRMC,\(time),A,\(lat),\(lon),0.0,0.0,211126,,,A")
            + sentence("GPGGA,\(time),\(lat),\(lon),1,08,0.9,35.0,M,40.0,M,,")
    }

    /// The time `epoch` gives for `second`, as anywall prints it.
    static func time(second: Int) -> String {
        String(format: "2026-11-21T%02d:%02d:%02d.000Z", 10 + second / 3600, second / 60 % 60, second % 60)
    }

    /// `ddmm.mmmmmmmm`: eight decimals of a minute are about 0.02 mm, so the walk is exact enough.
    private static func field(_ value: Double, degreeDigits: Int) -> String {
        let degrees = Int(abs(value))
        let minutes = (abs(value) - Double(degrees)) * 60
        return String(format: "%0\(degreeDigits)d%011.8f", degrees, minutes)
    }

    private static func sentence(_ body: String) -> String {
        "$\(body)*\(String(format: "%02X", body.utf8.reduce(UInt8(0), ^)))\r\n"
    }
}
