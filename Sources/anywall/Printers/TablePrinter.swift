import AnywallCore
import Foundation

/// The readable table: distance in the reader's units, author, age and text; hidden posts say
/// "Can't view post! Get closer." (dimmed on a colour terminal) and show only their distance.
struct TablePrinter: ResultPrinter {
    static let hiddenText = "Can't view post! Get closer."
    let reader: ReaderPreferences
    var now = Date()

    func render(_ posts: [NearbyPost]) -> String {
        table(header: ["DISTANCE", "AUTHOR", "AGE", "TEXT"],
              rows: posts.map { (cells(for: $0), $0.visible) })
    }

    func render(_ events: [ChangeEvent]) -> String {
        table(header: ["EVENT", "DISTANCE", "AUTHOR", "AGE", "TEXT"],
              rows: events.map { ([$0.kind.rawValue] + cells(for: $0.post), $0.post.visible) })
    }

    private func cells(for post: NearbyPost) -> [String] {
        [post.distance.readable(in: reader.units).description,
         post.visible ? (post.author ?? "?") : "",
         post.visible ? RelativeAge.describe(post.createdAt, now: now) : "",
         post.visible ? Self.oneLine(post.text ?? "") : Self.hiddenText]
    }

    private func table(header: [String], rows: [(cells: [String], visible: Bool)]) -> String {
        guard !rows.isEmpty else { return "" }
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.cells.enumerated().dropLast() { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        var out = line(header) + "\n"
        for row in rows {
            let text = line(row.cells)
            out += (!row.visible && reader.color ? "\u{1B}[2m\(text)\u{1B}[0m" : text) + "\n"
        }
        return out
    }

    /// Posts may hold newlines, and others' text must not steer the reader's terminal: a row
    /// is one line, and control characters show as their escapes.
    static func oneLine(_ text: String) -> String {
        var line = ""
        for scalar in text.split(whereSeparator: \.isNewline).joined(separator: " ").unicodeScalars {
            if scalar == "\t" {
                line += " "
            } else if scalar.isControl {
                line += scalar.escaped(asASCII: true)
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        return line
    }
}
