import Foundation

/// A unit a distance can be typed and printed in.
public enum DistanceUnit: String, CaseIterable, Sendable, Codable {
    case meters = "m"
    case kilometers = "km"
    case feet = "ft"
    case miles = "mi"

    /// How many metres one of this unit is (international foot and mile).
    public var metersPerUnit: Double {
        switch self {
        case .meters: return 1
        case .kilometers: return 1000
        case .feet: return 0.3048
        case .miles: return 1609.344
        }
    }
}

/// A length that always carries its unit, so feet can never pass for metres.
///
/// Comparison and equality use the length itself, whatever unit it was given in.
public struct Distance: Sendable, Comparable, Hashable, CustomStringConvertible {
    /// The number as given, in `unit`.
    public let value: Double
    /// The unit the distance was given in, and is printed in.
    public let unit: DistanceUnit

    /// A distance of `value` in `unit`.
    public init(_ value: Double, _ unit: DistanceUnit) {
        self.value = value
        self.unit = unit
    }

    /// A distance in metres.
    public static func meters(_ v: Double) -> Distance { Distance(v, .meters) }
    /// A distance in kilometres.
    public static func kilometers(_ v: Double) -> Distance { Distance(v, .kilometers) }
    /// A distance in international feet.
    public static func feet(_ v: Double) -> Distance { Distance(v, .feet) }
    /// A distance in international miles.
    public static func miles(_ v: Double) -> Distance { Distance(v, .miles) }

    /// The length in metres.
    public var meters: Double { value * unit.metersPerUnit }

    /// The same length expressed in another unit.
    public func converted(to other: DistanceUnit) -> Distance {
        Distance(meters / other.metersPerUnit, other)
    }

    /// Parses a distance as typed: `250ft`, `2km`, `1.5mi`, `800m`, `800 m`; a bare number is metres.
    ///
    /// Zero, negative, infinite and NaN distances are refused.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let match = trimmed.wholeMatch(of: /([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([a-z]*)/),
              let value = Double(match.1), value.isFinite else {
            throw AnywallError.inputRejected("bad distance '\(text)': expected a number with a unit, such as 250ft, 2km, 1.5mi or 800m")
        }
        let unit: DistanceUnit
        switch match.2 {
        case "", "m", "meter", "meters", "metre", "metres": unit = .meters
        case "km", "kilometer", "kilometers", "kilometre", "kilometres": unit = .kilometers
        case "ft", "foot", "feet": unit = .feet
        case "mi", "mile", "miles": unit = .miles
        default:
            throw AnywallError.inputRejected("bad distance '\(text)': unknown unit '\(match.2)' (use m, km, ft or mi)")
        }
        guard value > 0 else {
            throw AnywallError.inputRejected("bad distance '\(text)': it must be greater than zero")
        }
        guard (value * unit.metersPerUnit).isFinite else {
            throw AnywallError.inputRejected("bad distance '\(text)': too large")
        }
        self.init(value, unit)
    }

    /// Prints the number (up to two decimals, no trailing zeros) and its unit, e.g. `250 ft`, `1.5 km`.
    public var description: String {
        "\(Self.trimmedNumber(value)) \(unit.rawValue)"
    }

    /// The compact form used in flags and settings, e.g. `250ft`.
    public var flagForm: String {
        "\(Self.trimmedNumber(value))\(unit.rawValue)"
    }

    public static func < (lhs: Distance, rhs: Distance) -> Bool { lhs.meters < rhs.meters }
    public static func == (lhs: Distance, rhs: Distance) -> Bool { lhs.meters == rhs.meters }
    public func hash(into hasher: inout Hasher) { hasher.combine(meters) }

    private static func trimmedNumber(_ v: Double) -> String {
        let rounded = (v * 100).rounded() / 100
        if rounded == rounded.rounded() && abs(rounded) < 1e15 {
            return String(Int64(rounded))
        }
        return String(format: "%.2f", rounded)
            .replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
    }
}
