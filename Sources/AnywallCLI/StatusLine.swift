import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// One line of progress on stderr, rewritten in place; shown only when stderr is a terminal,
/// so logs and pipes never see it.
final class StatusLine {
    private let enabled = Terminal.stderrIsTerminal
    private var showing = false

    /// Replaces the line with `text`.
    func show(_ text: String) {
        guard enabled else { return }
        StandardStream.writeError(Data("\r\u{1B}[K\(text)".utf8))
        showing = true
    }

    /// Says how long the command has waited for a fix from `source`.
    func showWaiting(for source: LocationSource, waited: Duration) {
        show("waiting for a location fix from \(source.name) (\(waited.components.seconds) s)")
    }

    /// Erases the line, if one is shown.
    func clear() {
        guard showing else { return }
        StandardStream.writeError(Data("\r\u{1B}[K".utf8))
        showing = false
    }
}
