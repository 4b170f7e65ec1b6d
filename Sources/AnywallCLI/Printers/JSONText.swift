import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// JSON as anywall prints it: keys sorted (stable for diffs and tests), slashes unescaped, doubles in full
/// precision (the shortest text that reads back as the same number).
enum JSONText {
    static func encode<T: Encodable>(_ value: T, pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.withoutEscapingSlashes, .sortedKeys, .prettyPrinted] : [.withoutEscapingSlashes, .sortedKeys]
        // Every type anywall prints encodes without failing (no NaN can reach a GeoPoint).
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }
}
