import HTTPTypes
import Hummingbird
import ParseWire
import WallDomain

/// An error answer: Parse's error (`{"code":N,"error":"..."}`) with the status Parse gives its
/// code (404 for 101, 500 for 1, 400 otherwise), or the bare 403s of a refused key.
package struct ParseRefusal: Error, Sendable {
    package let status: HTTPResponse.Status
    package let error: ParseError
    /// Parse's refused-key answer is written raw, without a JSON content type.
    package var isJSON = true

    /// A Parse error `code` with its message.
    package init(_ code: Int, _ message: String) {
        self.init(ParseError(code, message))
    }

    /// A Parse error, with the status Parse Server sends it with.
    package init(_ error: ParseError) {
        self.error = error
        switch error.code {
        case ParseErrorCode.objectNotFound?: status = .notFound
        case ParseErrorCode.internalServerError?: status = .internalServerError
        default: status = .badRequest
        }
    }

    private init(status: HTTPResponse.Status, message: String, isJSON: Bool) {
        self.status = status
        error = ParseError(nil, message)
        self.isJSON = isJSON
    }

    /// A wrong or missing application id or REST API key.
    package static let unauthorized = ParseRefusal(status: .forbidden, message: "unauthorized", isJSON: false)
    /// A route that needs the master key, without it.
    package static let masterKeyRequired = ParseRefusal(status: .forbidden, message: "unauthorized: master key is required", isJSON: true)
    package static let invalidSessionToken = ParseRefusal(ParseErrorCode.invalidSessionToken, "Invalid session token")
    package static let objectNotFound = ParseRefusal(ParseErrorCode.objectNotFound, "Object not found.")
    package static let invalidJSON = ParseRefusal(ParseError.invalidJSON)
    package static let duplicateRequest = ParseRefusal(ParseErrorCode.duplicateRequest, "Duplicate request")
    package static let internalError = ParseRefusal(ParseErrorCode.internalServerError, "Internal server error.")

    /// 102: a query Parse (or this server) does not take.
    package static func invalidQuery(_ message: String) -> ParseRefusal { ParseRefusal(ParseError.invalidQuery(message)) }

    /// What the wall's own errors mean in Parse's codes; nil for those that are not the
    /// client's doing (a 500, logged).
    package init?(_ error: AnywallError) {
        switch error {
        case .duplicateRequest: self = .duplicateRequest
        case .notWritable: self = .objectNotFound
        case .sessionExpired: self = .invalidSessionToken
        case .badCredentials, .noPassword: self.init(ParseErrorCode.objectNotFound, "Invalid username/password.")
        case .usernameTaken: self.init(ParseErrorCode.usernameTaken, "Account already exists for this username.")
        case .inputRejected(let reason): self.init(ParseErrorCode.validationFailed, reason)
        default: return nil
        }
    }

    /// The answer to send.
    package var response: Response {
        ParseAnswer.json(error.json, status: status, contentType: isJSON)
    }
}
