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
        // The one way these values could fail to encode is a non-finite number; written as a
        // string instead, encoding cannot fail (and no NaN can reach a GeoPoint anyway).
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }
}
