import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// `nearby --watch` for people: `14:02:07  revealed  40 m  alice  Free coffee`, the time in the
/// reader's time zone; a hidden post shows only its distance and "Can't view post! Get closer.".
/// On a terminal the text wraps to its width, as in the table.
struct EventLinePrinter: EventStreamPrinter {
    let reader: ReaderPreferences
    private static let clock = Date.FormatStyle(date: .omitted, time: .standard)
    private static let eventWidth = ChangeKind.allCases.map(\.rawValue.count).max() ?? 0

    func render(_ events: [ChangeEvent]) -> String {
        events.flatMap { event in
            let post = event.post
            let head = [event.time.formatted(Self.clock),
                        event.kind.rawValue.padding(toLength: Self.eventWidth, withPad: " ", startingAt: 0),
                        post.distance.readable(in: reader.units).description] + [TablePrinter.author(of: post)].compactMap { $0 }
            return WrappedRow.lines(head: head.joined(separator: WrappedRow.separator), text: TablePrinter.text(of: post),
                                    width: reader.width).map {
                (!post.visible && reader.color ? TextStyle.dim.apply(to: $0) : $0) + "\n"
            }
        }.joined()
    }
}
