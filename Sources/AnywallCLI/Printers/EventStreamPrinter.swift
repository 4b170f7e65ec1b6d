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
}

extension NDJSONPrinter: EventStreamPrinter {}
