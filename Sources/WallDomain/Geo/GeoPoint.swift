import Foundation

/// A place on Earth in decimal degrees (WGS84 latitude and longitude).
///
/// Latitude must lie strictly between -90 and 90 and longitude strictly between
/// -180 and 180, as Parse requires of a GeoPoint; anything else is refused.
public struct GeoPoint: Hashable, Sendable, Codable {
    /// Degrees north of the equator (negative: south).
    public let latitude: Double
    /// Degrees east of Greenwich (negative: west).
    public let longitude: Double

    /// Creates a point, refusing coordinates outside the open ranges Parse accepts.
    public init(latitude: Double, longitude: Double) throws {
        guard latitude.isFinite, latitude > -90, latitude < 90 else {
            throw AnywallError.inputRejected(
                "latitude \(Self.show(latitude)) is out of range: it must be strictly between -90 and 90")
        }
        guard longitude.isFinite, longitude > -180, longitude < 180 else {
            throw AnywallError.inputRejected(
                "longitude \(Self.show(longitude)) is out of range: it must be strictly between -180 and 180")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Parses `LAT,LON` as typed after `--at` (spaces around the comma are allowed).
    public init(parsing text: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw AnywallError.inputRejected("bad coordinates '\(text)': expected LAT,LON such as 37.7793,-122.4193")
        }
        let lat = try Self.degrees(parts[0], name: "latitude", in: text)
        let lon = try Self.degrees(parts[1], name: "longitude", in: text)
        try self.init(latitude: lat, longitude: lon)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(latitude: c.decode(Double.self, forKey: .latitude),
                          longitude: c.decode(Double.self, forKey: .longitude))
        } catch let error as AnywallError {
            throw DecodingError.dataCorruptedError(forKey: .latitude, in: c, debugDescription: error.reason)
        }
    }

    private static func degrees(_ part: Substring, name: String, in text: String) throws -> Double {
        // Not Foundation's `trimmingCharacters(in:)`: its character set's first use was a fiftieth
        // of a whole `anywall nearby` process.
        let trimmed = String(part).trimmedOfWhitespace
        // Double("nan") and Double("inf") parse; they are refused by the range check with a clear message.
        // Double also reads hexadecimal ("0x10" is 16), which nobody means by a coordinate.
        guard let value = Double(trimmed), !trimmed.isEmpty, !trimmed.contains(where: { $0 == "x" || $0 == "X" }) else {
            throw AnywallError.inputRejected("bad coordinates '\(text)': \(name) '\(trimmed)' is not a number")
        }
        return value
    }

    private static func show(_ value: Double) -> String {
        value.isNaN ? "NaN" : "\(value)"
    }
}
