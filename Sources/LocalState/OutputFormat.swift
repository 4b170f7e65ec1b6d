import AnywallSupport
import ParseWire
import WallDomain
/// The names of the output formats, as flags and the `format` setting spell them.
public enum OutputFormat: String, CaseIterable, Sendable, Codable {
    /// A readable table (the default).
    case table
    /// One JSON array.
    case json
    /// One JSON object per line.
    case ndjson
    /// An RFC 7946 FeatureCollection.
    case geojson
}
