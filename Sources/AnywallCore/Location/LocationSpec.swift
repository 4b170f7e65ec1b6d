/// A location source as written in settings or `ANYWALL_LOCATION`: `at:LAT,LON`.
///
/// Parsing it is separate from opening it, so settings can be checked without a receiver.
public enum LocationSpec: Equatable, Sendable, CustomStringConvertible {
    case fixed(GeoPoint)

    /// Parses the settings form; refuses anything else with a one-line reason.
    public init(parsing text: String) throws {
        if text.hasPrefix("at:") {
            self = .fixed(try GeoPoint(parsing: String(text.dropFirst(3))))
            return
        }
        throw AnywallError.inputRejected("bad location '\(text)': expected at:LAT,LON")
    }

    public var description: String {
        switch self {
        case .fixed(let p): return "at:\(p.latitude),\(p.longitude)"
        }
    }

    /// Opens the source this spec names.
    public func makeSource() -> LocationSource {
        switch self {
        case .fixed(let p): return FixedLocation(p)
        }
    }
}
