import Foundation
import Hummingbird

/// A request's query string as name/value pairs, decoded as a form is (`+` is a space), in order.
enum QueryParameters {
    static func of(_ request: Request) -> [(String, String)] {
        guard let query = request.uri.query, !query.isEmpty else { return [] }
        var components = URLComponents()
        components.percentEncodedQuery = query.replacingOccurrences(of: "+", with: "%20")
        return (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }
}
