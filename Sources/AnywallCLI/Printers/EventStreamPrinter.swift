import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// Prints change events as they happen (`nearby --watch`): one line each, no header, nothing
/// held back, so a pipe sees every event at once.
protocol EventStreamPrinter {
    func render(_ events: [ChangeEvent]) -> String
    /// What a move prints: nothing for a stream of events; the map, redrawn around the new fix.
    func render(movedTo fix: Fix) -> String
    /// A redraw when the terminal's size changed since the last one, else nothing.
    func renderIfResized() -> String
    /// Printed before anything else (the map's alternate screen), and last, however the watch ends.
    var opening: String { get }
    var closing: String { get }
}

extension EventStreamPrinter {
    func render(movedTo fix: Fix) -> String { "" }
    func renderIfResized() -> String { "" }
    var opening: String { "" }
    var closing: String { "" }
}

extension NDJSONPrinter: EventStreamPrinter {}
