import AnywallSupport
import EmbeddedStore
import Foundation
import Hummingbird
import ParseWire
import WallDomain

/// A request's query string as name/value pairs, decoded as a form is (`+` is a space), in order.
package enum QueryParameters {
    package static func of(_ request: Request) -> [(String, String)] {
        guard let query = request.uri.query, !query.isEmpty else { return [] }
        var components = URLComponents()
        components.percentEncodedQuery = query.replacingOccurrences(of: "+", with: "%20")
        return (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }
}
