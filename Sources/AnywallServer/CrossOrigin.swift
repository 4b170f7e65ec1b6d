import HTTPTypes
import Hummingbird
import ParseWire

/// Which web pages' scripts may call the API (CORS), as Parse Server's `allowOrigin`: any page by
/// default, or one origin. Browsers send Parse's keys and session as headers, never cookies, so
/// answering any origin gives a page no power its user's keys do not.
package enum CrossOrigin: Sendable, Equatable, CustomStringConvertible {
    case anyOrigin
    case only(String)

    /// `*`, or one origin written as a browser sends it in `Origin`, which is compared with it
    /// byte for byte: `http` or `https`, a lowercase host (punycode for other scripts) or a
    /// bracketed IPv6 address, and a port only when not the scheme's own (`https://wall.example`,
    /// `http://localhost:8080`); no path, no wildcard.
    package init?(_ text: String) {
        if text == "*" {
            self = .anyOrigin
            return
        }
        guard let origin = text.wholeMatch(of: /(https?):\/\/(?:[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::([1-9][0-9]{0,4}))?/) else {
            return nil
        }
        if let port = origin.2 {
            guard let number = Int(port), number <= 65535, number != (origin.1 == "https" ? 443 : 80) else { return nil }
        }
        self = .only(text)
    }

    package var description: String {
        switch self {
        case .anyOrigin: "*"
        case .only(let origin): origin
        }
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
