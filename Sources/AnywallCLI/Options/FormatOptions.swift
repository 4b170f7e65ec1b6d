import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// FORMAT: how results are printed, and whether the readable ones are in colour.
struct FormatOptions: ParsableArguments {
    @Flag(exclusivity: .exclusive, help: ArgumentHelp(
        "Output format (default: the 'format' setting, else a readable table)."))
    var format: OutputFormat?
    @Flag(help: "No colour, even on a terminal (as NO_COLOR does).")
    var noColor = false

    /// The flag's format, else `ANYWALL_FORMAT` or the `format` setting, else the table.
    func resolved(_ preferences: Preferences) throws -> OutputFormat {
        try format ?? preferences.format ?? .table
    }
}

extension OutputFormat: EnumerableFlag {
    public static func help(for value: OutputFormat) -> ArgumentHelp? {
        switch value {
        case .table: return "A readable table."
        case .json: return "A JSON array."
        case .ndjson: return "One JSON object per line."
        case .geojson: return "An RFC 7946 GeoJSON FeatureCollection."
        }
    }
}

/// `--json` alone, for commands that print one thing.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print JSON.")
    var json = false
}
