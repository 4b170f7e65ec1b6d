import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The server's structured log: one JSON object per line on stderr, written in one `write`
/// so that lines from concurrent requests never interleave.
package enum ServerLog {
    static func write(_ fields: [String: JSONValue]) {
        guard var data = try? ParseAnswer.encoder.encode(fields) else { return }
        data.append(UInt8(ascii: "\n"))
        StandardStream.writeError(data)
    }

    /// A server event (`listening`, `stopping`, `stopped`) with its details.
    package static func event(_ name: String, _ details: [String: JSONValue] = [:]) {
        write(details.merging(["time": .string(ParseDate.string(from: Date())), "event": .string(name)]) { $1 })
    }
}
