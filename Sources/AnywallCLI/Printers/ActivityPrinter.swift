import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// The activity feed, as a readable table or JSON: entries `{"type", "time", "post", "reply",
/// "up", "down"}`, newest first (DESIGN.md). Posts are the user's own or in threads they replied
/// in, so their text is shown.
struct ActivityPrinter {
    let format: OutputFormat
    let reader: ReaderPreferences
    var now = Date()

    /// A post in an entry: no place to measure from, so no distance.
    private struct PostJSON: Encodable {
        let post: Post

        private enum CodingKeys: String, CodingKey { case objectId, text, author, location, createdAt, score, replyCount, parent, removed }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(post.objectId, forKey: .objectId)
            try c.encode(post.text, forKey: .text)
            try c.encode(post.author, forKey: .author)
            try c.encode(post.location, forKey: .location)
            try c.encode(ParseDate.string(from: post.createdAt), forKey: .createdAt)
            try c.encode(post.score, forKey: .score)
            try c.encode(post.replyCount, forKey: .replyCount)
            try c.encode(post.parent, forKey: .parent)
            try c.encodeIfPresent(post.removed, forKey: .removed)
        }
    }

    private struct EntryJSON: Encodable {
        let entry: ActivityEntry

        private enum CodingKeys: String, CodingKey { case type, time, post, reply, up, down }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(entry.kind, forKey: .type)
            try c.encode(ParseDate.string(from: entry.time), forKey: .time)
            try c.encode(PostJSON(post: entry.post), forKey: .post)
            switch entry.kind {
            case .reply: try c.encodeIfPresent(entry.reply.map(PostJSON.init), forKey: .reply)
            case .votes:
                try c.encode(entry.up, forKey: .up)
                try c.encode(entry.down, forKey: .down)
            case .removed, .restored: break
            }
        }
    }

    func render(_ entries: [ActivityEntry]) -> String {
        switch format {
        case .json, .geojson: return JSONText.encode(entries.map(EntryJSON.init)) + "\n"
        case .ndjson: return entries.map { JSONText.encode(EntryJSON(entry: $0)) + "\n" }.joined()
        case .table: return table(entries)
        }
    }

    private func table(_ entries: [ActivityEntry]) -> String {
        guard !entries.isEmpty else { return "" }
        let rows = entries.map { entry -> (head: [String], text: String) in
            let post = "\"\(TablePrinter.oneLine(entry.post.text))\""
            let what: String
            switch entry.kind {
            case .reply: what = "\(TablePrinter.oneLine(entry.reply?.author ?? "?")) replied to \(post): \(TablePrinter.oneLine(entry.reply?.text ?? ""))"
            case .votes: what = "\(entry.up) up, \(entry.down) down on \(post) (score \(entry.post.score))"
            case .removed: what = "\(post) was removed (\(entry.post.removed?.rawValue ?? "no longer"))"
            case .restored: what = "\(post) was restored by a moderator"
            }
            return ([RelativeAge.describe(entry.time, now: now), entry.kind.rawValue, entry.post.objectId], what)
        }
        var widths = [3, 5, 4]
        for row in rows { for (i, cell) in row.head.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { TablePrinter.padded($0.element, to: widths[$0.offset]) }.joined(separator: WrappedRow.separator)
        }
        var out = ""
        for text in WrappedRow.lines(head: line(["AGE", "EVENT", "POST"]), text: "WHAT", width: reader.width) {
            out += (reader.color ? TextStyle.bold.apply(to: text) : text) + "\n"
        }
        for row in rows {
            for text in WrappedRow.lines(head: line(row.head), text: row.text, width: reader.width) { out += text + "\n" }
        }
        return out
    }
}
