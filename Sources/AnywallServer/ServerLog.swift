import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The server's structured log: one JSON object per line on stderr, written in one `write`
/// so that lines from concurrent requests never interleave.
package enum ServerLog {
    /// Writes `line` (an event's fields, or a request's line) as one JSON line.
    static func write(_ line: some Encodable) {
        guard var data = try? ParseAnswer.encoder.encode(line) else { return }
        data.append(UInt8(ascii: "\n"))
        StandardStream.writeError(data)
    }

    /// A server event (`listening`, `stopping`, `stopped`) with its details.
    package static func event(_ name: String, _ details: [String: JSONValue] = [:]) {
        write(details.merging(["time": .string(ParseDate.string(from: Date())), "event": .string(name)]) { $1 })
    }
}
