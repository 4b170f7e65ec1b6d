import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// The readable table: distance in the reader's units, author, age, score and text (with the
/// thread's size); hidden posts say
/// "Can't view post! Get closer." (dimmed on a colour terminal) and show only their distance, score
/// and thread size.
/// Columns are aligned by display width; on a terminal the text wraps to its width (`WrappedRow`).
struct TablePrinter: ResultPrinter {
    static let hiddenText = "Can't view post! Get closer."
    /// The shortest an author is cut to when a long name would not leave the row room on a narrow terminal.
    static let shortestAuthor = "AUTHOR".count
    /// The widest the author column gets: a long name is cut with "…" rather than push the text of
    /// every row onto lines of its own.
    static let longestAuthor = 24
    let reader: ReaderPreferences
    var now = Date()

    /// A row: the cells before the text, and the text.
    private struct Row {
        let head: [String]
        let text: String
        let visible: Bool
    }

    func render(_ posts: [NearbyPost]) -> String {
        table(header: ["DISTANCE", "AUTHOR", "AGE", "SCORE"], authorColumn: 1, rows: posts.map {
            Row(head: head(of: $0) + [String($0.score)], text: Self.text(of: $0), visible: $0.visible)
        })
    }

    /// The events leave the score out: the event's column takes its room on a narrow terminal.
    func render(_ events: [ChangeEvent]) -> String {
        table(header: ["EVENT", "DISTANCE", "AUTHOR", "AGE"], authorColumn: 2, rows: events.map {
            Row(head: [$0.kind.rawValue] + head(of: $0.post), text: Self.text(of: $0.post), visible: $0.post.visible)
        })
    }

    private func head(of post: NearbyPost) -> [String] {
        [post.distance.readable(in: reader.units).description,
         Self.author(of: post) ?? "",
         post.visible ? RelativeAge.describe(post.createdAt, now: now) : ""]
    }

    /// The author as a readable printer shows it: nil for a hidden post, "?" when unknown.
    static func author(of post: NearbyPost) -> String? {
        post.visible ? oneLine(post.author ?? "?") : nil
    }

    /// The text as a readable printer shows it, or "Can't view post! Get closer." for a hidden post.
    static func text(of post: NearbyPost) -> String {
        // A thread's size shows even where its text does not.
        let replies = post.replyCount == 0 ? "" : " (\(post.replyCount) \(post.replyCount == 1 ? "reply" : "replies"))"
        guard post.visible else { return hiddenText + replies }
        // Only its author and the moderators are told; they see why the others do not see it.
        let removal = post.removed.map { "[removed: \($0.rawValue)] " } ?? ""
        return removal + oneLine(post.text ?? "") + replies
    }

    private func table(header: [String], authorColumn: Int, rows: [Row]) -> String {
        guard !rows.isEmpty else { return "" }
        var widths = header.map { DisplayWidth.of($0) }
        for row in rows {
            for (i, cell) in row.head.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        widths[authorColumn] = min(widths[authorColumn], Self.longestAuthor)
        if let width = reader.width {
            // A long name must not push the other columns off a narrow terminal: it is cut first.
            let headWidth = widths.reduce(0, +) + WrappedRow.separator.count * (widths.count - 1)
            if headWidth > width {
                widths[authorColumn] = max(Self.shortestAuthor, widths[authorColumn] - (headWidth - width))
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                Self.padded(i == authorColumn ? Self.cut(cell, to: widths[i]) : cell, to: widths[i])
            }.joined(separator: WrappedRow.separator)
        }
        var out = ""
        for text in WrappedRow.lines(head: line(header), text: "TEXT", width: reader.width) {
            out += (reader.color ? TextStyle.bold.apply(to: text) : text) + "\n"
        }
        for row in rows {
            for text in WrappedRow.lines(head: line(row.head), text: row.text, width: reader.width) {
                out += (!row.visible && reader.color ? TextStyle.dim.apply(to: text) : text) + "\n"
            }
        }
        return out
    }

    static func padded(_ cell: String, to width: Int) -> String {
        cell + String(repeating: " ", count: max(0, width - DisplayWidth.of(cell)))
    }

    /// `cell` if it fits in `width` columns, else its start and "…".
    static func cut(_ cell: String, to width: Int) -> String {
        guard DisplayWidth.of(cell) > width else { return cell }
        return String(DisplayWidth.split(Substring(cell), fitting: width - 1).head) + "…"
    }

    /// Posts may hold newlines, and others' text must not steer the reader's terminal: a row
    /// is one line, and control characters show as their escapes.
    static func oneLine(_ text: String) -> String {
        Terminal.inert(text.split(whereSeparator: \.isNewline).joined(separator: " ").replacingOccurrences(of: "\t", with: " "))
    }
}
