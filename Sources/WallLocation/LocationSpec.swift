import AnywallSupport
import WallDomain
/// A location source as written in settings or `ANYWALL_LOCATION` (`at:LAT,LON`,
/// `gpsd[:HOST[:PORT]]`, `nmea:PATH`), or chosen by the LOCATION flags.
///
/// Parsing it is separate from opening it, so settings can be checked without a receiver.
public enum LocationSpec: Equatable, Sendable, CustomStringConvertible {
    case fixed(GeoPoint)
    case gpsd(GPSDAddress)
    case nmea(path: String)

    /// Parses the settings form; refuses anything else with a one-line reason.
    public init(parsing text: String) throws {
        if text.hasPrefix("at:") {
            self = .fixed(try GeoPoint(parsing: String(text.dropFirst(3))))
        } else if text == "gpsd" {
            self = .gpsd(GPSDAddress())
        } else if text.hasPrefix("gpsd:") {
            self = .gpsd(try GPSDAddress(parsing: String(text.dropFirst(5))))
        } else if text.hasPrefix("nmea:"), text.count > 5 {
            self = .nmea(path: String(text.dropFirst(5)))
        } else {
            throw AnywallError.inputRejected("bad location '\(text)': expected at:LAT,LON, gpsd[:HOST[:PORT]] or nmea:PATH")
        }
    }

    public var description: String {
        switch self {
        case .fixed(let p): return "at:\(p.latitude),\(p.longitude)"
        case .gpsd(let address): return "gpsd:\(address)"
        case .nmea(let path): return "nmea:\(path)"
        }
    }

    /// Opens the source this spec names; `baud` sets the speed of a serial NMEA device.
    public func makeSource(baud: BaudRate? = nil) -> LocationSource {
        switch self {
        case .fixed(let p): return FixedLocation(p)
        case .gpsd(let address): return GPSDSource(address: address)
        case .nmea(let path): return NMEASource(path: path, baud: baud)
        }
    }
}
