import AnywallCore
import Foundation

/// `nearby --watch` for people: `14:02:07  revealed  40 m  alice  Free coffee`, the time in the
/// reader's time zone; a hidden post shows only its distance and "Can't view post! Get closer.".
struct EventLinePrinter: EventStreamPrinter {
    let reader: ReaderPreferences
    private static let clock = Date.FormatStyle(date: .omitted, time: .standard)
    private static let eventWidth = ChangeKind.allCases.map(\.rawValue.count).max() ?? 0

    func render(_ events: [ChangeEvent]) -> String {
        events.map { event in
            let post = event.post
            var fields = [event.time.formatted(Self.clock),
                          event.kind.rawValue.padding(toLength: Self.eventWidth, withPad: " ", startingAt: 0),
                          post.distance.readable(in: reader.units).description]
            if post.visible {
                fields += [post.author ?? "?", TablePrinter.oneLine(post.text ?? "")]
            } else {
                fields.append(TablePrinter.hiddenText)
            }
            let line = fields.joined(separator: "  ")
            return (!post.visible && reader.color ? "\u{1B}[2m\(line)\u{1B}[0m" : line) + "\n"
        }.joined()
    }
}
