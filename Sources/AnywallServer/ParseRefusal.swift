import HTTPTypes
import Hummingbird
import ParseWire
import WallDomain

/// An error answer: Parse's error (`{"code":N,"error":"..."}`) with the status Parse gives its
/// code (404 for 101, 500 for 1, 400 otherwise), or the bare 403s of a refused key.
struct ParseRefusal: Error, Sendable {
    let status: HTTPResponse.Status
    private(set) var error: ParseError
    /// Parse's refused-key answer is written raw, without a JSON content type.
    var isJSON = true
    /// Seconds after which a refused client may try again (`Retry-After`).
    var retryAfter: Int?

    /// A Parse error `code` with its message.
    init(_ code: Int, _ message: String) {
        self.init(ParseError(code, message))
    }

    /// A Parse error, with the status Parse Server sends it with.
    init(_ error: ParseError) {
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
    static let unauthorized = ParseRefusal(status: .forbidden, message: "unauthorized", isJSON: false)
    /// A route that needs the master key, without it.
    static let masterKeyRequired = ParseRefusal(status: .forbidden, message: "unauthorized: master key is required", isJSON: true)
    static let invalidSessionToken = ParseRefusal(ParseErrorCode.invalidSessionToken, "Invalid session token")
    static let objectNotFound = ParseRefusal(ParseErrorCode.objectNotFound, "Object not found.")
    static let invalidJSON = ParseRefusal(ParseError.invalidJSON)
    static let duplicateRequest = ParseRefusal(ParseErrorCode.duplicateRequest, "Duplicate request")
    static let internalError = ParseRefusal(ParseErrorCode.internalServerError, "Internal server error.")

    /// Parse Server's rate-limit answer: 429 with code 100, and when to try again.
    static func tooManyRequests(_ message: String, retryAfter seconds: Int) -> ParseRefusal {
        var refusal = ParseRefusal(status: .tooManyRequests, message: message, isJSON: true)
        refusal.error = ParseError(ParseErrorCode.connectionFailed, message)
        refusal.retryAfter = seconds
        return refusal
    }

    /// 102: a query Parse (or this server) does not take.
    /// A write of a field only the wall moves (a post's counters and removal), refused as a Cloud
    /// Code `beforeSave` refuses it, in Parse Server's words for its own such fields.
    static func protectedField(_ name: String) -> ParseRefusal {
        ParseRefusal(ParseErrorCode.operationForbidden, "Clients aren't allowed to manually update \(name).")
    }

    static func invalidQuery(_ message: String) -> ParseRefusal { ParseRefusal(ParseError.invalidQuery(message)) }

    /// Runs a find: what the wall refuses while it runs (a `$regex` too costly on some record) is
    /// the query's doing, 102 as Parse answers a query it does not take.
    static func refusingQuery<T>(_ find: () async throws -> T) async throws -> T {
        do {
            return try await find()
        } catch AnywallError.inputRejected(let reason) {
            throw invalidQuery(reason)
        }
    }

    /// What the wall's own errors mean in Parse's codes; nil for those that are not the
    /// client's doing (a 500, logged).
    init?(_ error: AnywallError) {
        switch error {
        case .duplicateRequest: self = .duplicateRequest
        case .notWritable: self = .objectNotFound
        case .sessionExpired: self = .invalidSessionToken
        case .badCredentials, .noPassword: self.init(ParseErrorCode.objectNotFound, "Invalid username/password.")
        case .usernameTaken: self.init(ParseErrorCode.usernameTaken, "Account already exists for this username.")
        case .inputRejected(let reason): self.init(ParseErrorCode.validationFailed, reason)
        case .objectTooLarge(let reason): self.init(ParseErrorCode.objectTooLarge, reason)
        case .fieldTypeMismatch: self.init(ParseErrorCode.incorrectType, error.reason)
        case .notModerator: self.init(ParseErrorCode.operationForbidden, "only the role moderators may do this")
        case .identityTaken: self.init(ParseErrorCode.accountAlreadyLinked, "this auth is already used")
        case .lastWayToLogIn(let provider):
            self.init(ParseErrorCode.operationForbidden, "Cannot unlink \(provider): it is this account's last way to log in (set a password or link another first).")
        default: return nil
        }
    }

    /// The answer to send.
    var response: Response {
        ParseAnswer.json(error.json, status: status, contentType: isJSON,
                         headers: retryAfter.map { [.retryAfter: String($0)] } ?? [:])
    }
}
