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
        case .loginMethodUnavailable:
            return "\(reason); use a Parse Server or anywall-server ('anywall settings set server URL')"
        case .lastWayToLogIn:
            return "\(reason): give it a username and password first ('anywall signup --username U' while logged in anonymously) "
                + "or log in with them, then unlink"
        case .facebookAppMissing(let keys):
            let settings = keys.map { $0 == FacebookApp.appIdKey ? "anywall settings set facebook-app-id ID" : "anywall settings set facebook-client-token TOKEN" }
            return "\(reason): '\(settings.joined(separator: "', '"))'"
        case .deviceLoginExpired:
            return "\(reason): run 'anywall login --facebook' again"
        case .inputRejected, .objectTooLarge, .fileUnreadable, .usernameTaken, .badCredentials, .accountRefused, .notWritable, .duplicateRequest, .fieldTypeMismatch,
             .postRefused, .backendUnreachable, .protocolError, .masterKeyRefused, .requestRefused, .noFix, .sourceUnreachable,
             .failure, .unsupported, .notModerator, .notLinked, .identityTaken, .facebookRefused:
            return reason
        }
    }
}
