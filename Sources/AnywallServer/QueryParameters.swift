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

    private static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
