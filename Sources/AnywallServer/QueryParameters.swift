import AnywallSupport
import Foundation
import Hummingbird
import ParseWire
import WallDomain

/// A request's query string as name/value pairs, decoded as a form is (`+` is a space), in order.
/// An escape that is not valid percent-encoding (a stray `%`) is kept as it came and bytes that
/// are not UTF-8 become U+FFFD, as Node's parser (Parse Server's) decodes them; Foundation's
/// `URLComponents` would trap on them and take the server down, and its `removingPercentEncoding`
/// costs more than a find's query.
enum QueryParameters {
    static func of(_ request: Request) -> [(String, String)] {
        guard let query = request.uri.query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

    /// A fetch's parameters (`GET /classes/Posts/:id`, `/users/:id`): those that shape its answer
    /// (`include`, `keys`, `excludeKeys`). Read preferences, which Parse Server also takes, are
    /// dropped; any other parameter is refused with 102, as Parse Server refuses it.
    static func ofFetch(_ request: Request) throws -> [(String, String)] {
        let parameters = of(request)
        guard parameters.allSatisfy({ shaping.contains($0.0) || readPreferences.contains($0.0) }) else {
            throw ParseRefusal.invalidQuery("Improper encode of parameter")
        }
        return parameters.filter { shaping.contains($0.0) }
    }

    private static let shaping: Set<String> = ["include", "keys", "excludeKeys"]
    private static let readPreferences: Set<String> = ["readPreference", "includeReadPreference", "subqueryReadPreference"]

    /// `fields` as a query string, as Parse Server reads a find's parameters from a body: strings
    /// as they are, any other value as its JSON (`where`, `limit`, `count`).
    static func encoded(_ fields: [String: JSONValue]) -> String {
        // Only unreserved characters are left as they are, so `&`, `=` and `+` in a value stay in it.
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return fields.sorted { $0.key < $1.key }.map { name, value in
            let text = value.string ?? String(decoding: (try? ParseAnswer.encoder.encode(value)) ?? Data(), as: UTF8.self)
            return (name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "") + "="
                + (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
        }.joined(separator: "&")
    }

    private static func decoded(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
                continue
            }
            decoded.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
