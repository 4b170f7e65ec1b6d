import AnywallSupport
import Foundation
import Hummingbird
import ParseWire
import WallDomain

/// A request's query string as name/value pairs, decoded as a form is (`+` is a space), in order.
/// Text that is not valid percent-encoding (a stray `%`) is kept as it came, as Node's parser
/// keeps it; Foundation's `URLComponents` would trap on it and take the server down.
enum QueryParameters {
    static func of(_ request: Request) -> [(String, String)] {
        guard let query = request.uri.query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

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
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
