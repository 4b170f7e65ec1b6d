import AnywallCore
import Foundation
import HTTPTypes
import Hummingbird

/// An error answer in Parse Server's shape: `{"code":N,"error":"..."}` with the status Parse
/// gives that code (404 for 101, 400 otherwise), or the bare 403s of a refused key.
struct ParseRefusal: Error, Sendable {
    let status: HTTPResponse.Status
    /// nil for the 403s, which carry no code.
    let code: Int?
    let message: String
    /// Parse's refused-key answer is written raw, without a JSON content type.
    var isJSON = true

    /// A Parse error `code` with its message.
    init(_ code: Int, _ message: String) {
        self.code = code
        self.message = message
        status = code == ParseErrorCode.objectNotFound ? .notFound : (code == ParseErrorCode.internalServerError ? .internalServerError : .badRequest)
    }

    private init(status: HTTPResponse.Status, message: String, isJSON: Bool) {
        self.status = status
        code = nil
        self.message = message
        self.isJSON = isJSON
    }

    /// A wrong or missing application id or REST API key.
    static let unauthorized = ParseRefusal(status: .forbidden, message: "unauthorized", isJSON: false)
    /// A route that needs the master key, without it.
    static let masterKeyRequired = ParseRefusal(status: .forbidden, message: "unauthorized: master key is required", isJSON: true)
    static let invalidSessionToken = ParseRefusal(ParseErrorCode.invalidSessionToken, "Invalid session token")
    static let objectNotFound = ParseRefusal(ParseErrorCode.objectNotFound, "Object not found.")
    static let invalidJSON = ParseRefusal(ParseErrorCode.invalidJSON, "Invalid JSON")
    static let duplicateRequest = ParseRefusal(ParseErrorCode.duplicateRequest, "Duplicate request")
    static let internalError = ParseRefusal(ParseErrorCode.internalServerError, "Internal server error.")

    /// 102: a query Parse (or this server) does not take.
    static func invalidQuery(_ message: String) -> ParseRefusal { ParseRefusal(ParseErrorCode.invalidQuery, message) }

    /// The answer to send.
    var response: Response {
        var body: [String: JSONValue] = ["error": .string(message)]
        if let code {
            body["code"] = .number(Double(code))
            if code == ParseErrorCode.internalServerError { body = ["code": .number(Double(code)), "message": .string(message)] }
        }
        return ParseAnswer.json(body, status: status, contentType: isJSON)
    }
}
