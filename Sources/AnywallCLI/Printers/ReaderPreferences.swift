import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// What the readable printers (the table, `--watch` lines) need to know about the person reading.
struct ReaderPreferences {
    var units: UnitSystem
    var color: Bool
    /// The display columns to wrap to; nil: no wrapping, one row per line.
    var width: Int?

    /// The reader of this process's stdout: its terminal's width and colour rules.
    static func atStandardOutput(units: UnitSystem, noColorFlag: Bool, environment: [String: String]) -> ReaderPreferences {
        ReaderPreferences(units: units, color: Terminal.useColor(environment: environment, noColorFlag: noColorFlag),
                          width: Terminal.outputWidth(environment: environment))
    }
}
