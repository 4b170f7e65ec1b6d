import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// `nearby --watch` for people: `14:02:07  revealed  40 m      alice             Free coffee`, the
/// time in the reader's time zone; a hidden post shows only its distance and "Can't view post! Get
/// closer.". Lines printed minutes apart keep their columns: the distance and the author have fixed
/// widths (a longer name is cut with "…"). On a terminal the text wraps to its width, as in the table.
struct EventLinePrinter: EventStreamPrinter {
    let reader: ReaderPreferences
    private static let eventWidth = ChangeKind.allCases.map(\.rawValue.count).max() ?? 0
    /// Wide enough for `999.9 km` and `5280 ft`.
    private static let distanceWidth = 8
    private static let authorWidth = 16

    /// `14:02:07`: 24-hour and plain ASCII whatever the locale's habits (no AM/PM, no narrow
    /// no-break space), so that the lines read alike everywhere and split on spaces.
    static func clock(_ time: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: time)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    func render(_ events: [ChangeEvent]) -> String {
        let separator = WrappedRow.separator.count
        // On a narrow terminal the author gives way first, as in the table.
        let authorWidth = reader.width.map {
            max(TablePrinter.shortestAuthor, min(Self.authorWidth, $0 - 8 - Self.eventWidth - Self.distanceWidth - 4 * separator))
        } ?? Self.authorWidth
        return events.flatMap { event in
            let post = event.post
            let head = [Self.clock(event.time),
                        TablePrinter.padded(event.kind.rawValue, to: Self.eventWidth),
                        TablePrinter.padded(post.distance.readable(in: reader.units).description, to: Self.distanceWidth),
                        TablePrinter.padded(TablePrinter.cut(TablePrinter.author(of: post) ?? "", to: authorWidth), to: authorWidth)]
            return WrappedRow.lines(head: head.joined(separator: WrappedRow.separator), text: TablePrinter.text(of: post),
                                    width: reader.width).map {
                (!post.visible && reader.color ? TextStyle.dim.apply(to: $0) : $0) + "\n"
            }
        }.joined()
    }
}
