import ParseWire
import WallDomain

/// What a Parse Server's refusal means for anywall, whatever the call: Parse's code, or for the
/// answers that carry none, the HTTP status and whether the request carried the master key.
struct ParseRefusalMeaning {
    let code: Int?
    let message: String
    let status: Int
    /// A request with the master key meets a 403 for that key; any other, for the application
    /// id or REST key. (Parse Server words both "unauthorized...", so the words decide nothing.)
    let withMasterKey: Bool

    func error(wall: String) -> AnywallError {
        switch (code, status) {
        case (ParseErrorCode.invalidSessionToken, _):
            return .sessionExpired
        case (nil, 401), (nil, 403):
            return withMasterKey ? .masterKeyRefused(wall: wall, reason: message) : .keysRefused(wall: wall, status: status)
        case (ParseErrorCode.operationForbidden, _):
            // What a stock server answers until the Posts class exists, and to other forbidden operations.
            return .operationForbidden(wall: wall, reason: message)
        case (ParseErrorCode.usernameMissing, _), (ParseErrorCode.passwordMissing, _):
            return .accountRefused(wall: wall, reason: message)
        default:
            return .requestRefused(wall: wall, reason: message, code: code, status: status)
        }
    }
}
