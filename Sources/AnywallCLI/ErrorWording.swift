import WallDomain

extension AnywallError {
    /// The one line anywall prints for the error (after "anywall: "), with what to do about it
    /// where there is something to do: the libraries say what happened, the CLI how to go on.
    package var wording: String {
        switch self {
        case .notLoggedIn:
            return "not logged in: run 'anywall login' (or 'anywall signup') first"
        case .noPassword(let username):
            return "\(username) has no password yet: whoever keeps the wall can set one with 'anywall passwd'"
        case .sessionExpired:
            return "the session has expired or was ended: log in again with 'anywall login'"
        case .noSessionGiven(let wall):
            return "\(wall) sent no session: log in with 'anywall login'"
        case .keysRefused:
            return "\(reason): check 'anywall settings show'"
        case .masterKeyMissing(let wall):
            return "changing \(wall)'s config needs its master key: --master-key-file FILE, or --master-key-stdin"
        case .operationForbidden:
            return "\(reason); a new server needs the Posts class created once: 'anywall config init --master-key-file FILE'"
        case .noCachedAnswer:
            return "\(reason): ask once with the server in reach"
        case .inputRejected, .objectTooLarge, .fileUnreadable, .usernameTaken, .badCredentials, .accountRefused, .notWritable, .duplicateRequest, .fieldTypeMismatch,
             .postRefused, .backendUnreachable, .protocolError, .masterKeyRefused, .requestRefused, .noFix, .sourceUnreachable,
             .failure, .unsupported, .notModerator, .identityTaken, .lastWayToLogIn:
            return reason
        }
    }
}
