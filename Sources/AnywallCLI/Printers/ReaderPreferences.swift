import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// What the readable printers (the table, `--watch` lines) need to know about the person reading.
package struct ReaderPreferences {
    package var units: UnitSystem
    package var color: Bool
    /// The display columns to wrap to; nil: no wrapping, one row per line.
    package var width: Int?

    /// The reader of this process's stdout: its terminal's width and colour rules.
    package static func atStandardOutput(units: UnitSystem, noColorFlag: Bool, environment: [String: String]) -> ReaderPreferences {
        ReaderPreferences(units: units, color: Terminal.useColor(environment: environment, noColorFlag: noColorFlag),
                          width: Terminal.outputWidth(environment: environment))
    }
}
