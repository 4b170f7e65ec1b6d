import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// Turns nearby posts, or the changes between two results, into the text of one output format.
protocol ResultPrinter {
    func render(_ posts: [NearbyPost]) -> String
    func render(_ events: [ChangeEvent]) -> String
}

enum ResultPrinters {
    /// The printer for `format`.
    static func make(_ format: OutputFormat, reader: ReaderPreferences) -> ResultPrinter {
        switch format {
        case .table: return TablePrinter(reader: reader)
        case .json: return JSONArrayPrinter()
        case .ndjson: return NDJSONPrinter()
        case .geojson: return GeoJSONPrinter()
        }
    }
}
