import Foundation
import HTTPTypes
import Hummingbird
import ParseWire

/// Which web pages' scripts may call the API (CORS), as Parse Server's `allowOrigin`: any page by
/// default, or one origin. Browsers send Parse's keys and session as headers, never cookies, so
/// answering any origin gives a page no power its user's keys do not.
package enum CrossOrigin: Sendable, Equatable {
    case anyOrigin
    case only(String)

    /// `*`, or one origin as a browser names it: scheme, host and port, no path
    /// (`https://wall.example`, `http://localhost:8080`).
    package init?(_ text: String) {
        if text == "*" {
            self = .anyOrigin
            return
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil else {
            return nil
        }
        self = .only(text)
    }

    /// The headers a browser may send (Parse Server's default list).
    private static let allowedHeaders: [HTTPField.Name] = [
        ParseHeader.masterKey, ParseHeader.restKey, ParseHeader.javascriptKey, ParseHeader.applicationId, ParseHeader.clientVersion,
        ParseHeader.sessionToken, "X-Requested-With", ParseHeader.revocableSession, ParseHeader.requestId, "Content-Type", "Pragma",
        "Cache-Control",
    ].map { HTTPField.Name($0)! }

    /// Hummingbird's CORS middleware: it answers a browser's preflight `OPTIONS` before the keys
    /// are checked, and marks every answer, refusals included, with the allowed origin.
    func middleware<Context: RequestContext>() -> CORSMiddleware<Context> {
        let origin: CORSMiddleware<Context>.AllowOriginExtended = switch self {
        case .anyOrigin: .all
        case .only(let origin): .custom(origin)
        }
        return CORSMiddleware(allowOrigin: origin, allowHeaders: Self.allowedHeaders, allowMethods: [.get, .put, .post, .delete, .options])
    }
}
