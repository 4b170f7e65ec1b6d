import AnywallSupport
import ParseWire
import WallDomain
/// The names of the output formats, as flags and the `format` setting spell them.
///
/// Its description is its name, said here rather than found by reflection: the flags' parser
/// describes each format at every command's start, and each protocol the Swift runtime tries on the
/// way to reflection is a first lookup, a scan of every conformance record of the binary.
public enum OutputFormat: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// A readable table (the default).
    case table
    /// One JSON array.
    case json
    /// One JSON object per line.
    case ndjson
    /// An RFC 7946 FeatureCollection.
    case geojson

    public var description: String { rawValue }
}
