import WallDomain

/// A refusal in Parse's words: its error code and message. The server writes it as
/// `{"code":N,"error":"..."}` (an uncaught error, code 1, as `{"code":1,"message":"..."}`); the
/// client reads any of Parse Server's error shapes with it, the bare `{"error":"unauthorized"}`
/// of a refused key included (no code).
public struct ParseError: Error, Equatable, Sendable, ParseCodable {
    /// Parse's code (`ParseErrorCode`); nil for the refused-key answers, which carry none.
    public let code: Int?
    public let message: String

    public init(_ code: Int?, _ message: String) {
        self.code = code
        self.message = message
    }

    public var json: JSONValue {
        guard let code else { return .object(["error": .string(message)]) }
        let messageKey = code == ParseErrorCode.internalServerError ? "message" : "error"
        return .object(["code": .number(Double(code)), messageKey: .string(message)])
    }

    public init(json: JSONValue) throws(ParseError) {
        guard let fields = json.fields else { throw .invalidJSON }
        let code = fields["code"]?.number.flatMap { Int(exactly: $0) }
        guard let message = fields["error"]?.text ?? fields["message"]?.text else { throw .invalidJSON }
        self.init(code, message)
    }

    /// 102: a query Parse (or anywall-server) does not take.
    public static func invalidQuery(_ message: String) -> ParseError { ParseError(ParseErrorCode.invalidQuery, message) }
    /// 107: a body or a value that is not what Parse expects there.
    public static func invalidJSON(_ message: String) -> ParseError { ParseError(ParseErrorCode.invalidJSON, message) }
    public static let invalidJSON = ParseError(ParseErrorCode.invalidJSON, "Invalid JSON")
}
