import WallDomain
/// The Parse error codes anywall sends or treats apart (Parse's `ParseError`; the REST guide's
/// error code list).
public enum ParseErrorCode {
    public static let internalServerError = 1
    /// Also what Parse Server's rate limit answers, with HTTP 429.
    public static let connectionFailed = 100
    public static let objectNotFound = 101
    public static let invalidQuery = 102
    public static let invalidClassName = 103
    public static let invalidKeyName = 105
    public static let invalidJSON = 107
    public static let commandUnavailable = 108
    public static let incorrectType = 111
    /// Parse's OBJECT_TOO_LARGE: an object (or an answer) past the size the server keeps (sends).
    public static let objectTooLarge = 116
    /// A key inside an object value holding `$` or `.`.
    public static let invalidNestedKey = 121
    public static let operationForbidden = 119
    public static let invalidACL = 123
    /// A request too costly to run, stopped on the server.
    public static let timeout = 124
    public static let duplicateValue = 137
    public static let invalidRoleName = 139
    /// Parse's SCRIPT_FAILED: also what Parse Server answers when an auth provider's check fails
    /// without a Parse error of its own (the provider's API cannot be reached).
    public static let scriptFailed = 141
    public static let validationFailed = 142
    public static let duplicateRequest = 159
    public static let usernameMissing = 200
    public static let passwordMissing = 201
    public static let usernameTaken = 202
    public static let sessionMissing = 206
    /// An identity (`authData`) linked to another account already.
    public static let accountAlreadyLinked = 208
    public static let invalidSessionToken = 209
    /// An `authData` provider the server does not take.
    public static let unsupportedService = 252
}
