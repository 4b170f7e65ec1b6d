/// What went wrong, as specific cases the libraries throw. The libraries never word a hint or
/// pick an exit code: the CLI words each case for people and maps it to its exit code
/// (`ErrorWording`, `ExitStatus`); the server maps it to Parse's code (`ParseRefusal`).
/// Nothing decides by matching a message's text.
public enum AnywallError: Error, Equatable, Sendable {
    // MARK: Input

    /// Something the user typed or piped in is not acceptable; the reason names the rule
    /// (coordinates out of range, an unknown unit, text too long...).
    case inputRejected(String)
    /// A record would grow past the size a wall keeps; the reason gives both sizes.
    case objectTooLarge(String)
    /// A file the user named cannot be read or written; the reason says which and why.
    case fileUnreadable(String)

    // MARK: Accounts

    /// The command needs a session and there is none.
    case notLoggedIn
    /// An account with this username exists already (usernames compare without case).
    case usernameTaken(String)
    /// No account has this username and password.
    case badCredentials
    /// The account exists but has no password (imported with its posts); `passwd` sets one.
    case noPassword(username: String)
    /// The backend no longer knows the session (revoked, expired): it must be forgotten.
    case sessionExpired
    /// The server refused to create the account (Parse's 200 and 201); its reason.
    case accountRefused(wall: String, reason: String)
    /// The server acted on a sign-up or log-in but sent no session token.
    case noSessionGiven(wall: String)
    /// The wall cannot take this way of logging in (the embedded wall cannot check a Facebook
    /// token offline); the reason says why.
    case loginMethodUnavailable(wall: String, method: LoginMethod, reason: String)
    /// The account has no such login method to unlink.
    case notLinked(method: LoginMethod)
    /// Logging in with Facebook needs the app's id and client token, and these are missing
    /// (the config keys' names).
    case facebookAppMissing([String])
    /// Facebook refused the access token or the app (Graph API error, or Parse's 101 for Facebook auth);
    /// its reason, never the token.
    case facebookRefused(String)
    /// Nobody approved the device login before its code expired, or it was denied.
    case deviceLoginExpired

    // MARK: Posts

    /// The post does not exist, or the session's user may not change it (only its author may).
    /// One case for both, as Parse answers both: a caller learns nothing of posts it cannot write.
    case notWritable(objectId: String)
    /// The backend already has this post: an earlier try with the same request id reached it.
    case duplicateRequest(requestId: String)
    /// A value for a post's field is not of the type the field was first given (Parse's 111).
    case fieldTypeMismatch(field: String, expected: String, given: String)
    /// The server refused the post itself (Parse's 142): too long, invalid; its reason.
    case postRefused(wall: String, reason: String)

    // MARK: The wall

    /// The wall cannot be reached or opened now; the reason says why. A cached answer may stand
    /// in, and a post waits in the outbox.
    case backendUnreachable(String)
    /// The wall answered something that is not the protocol it speaks (malformed JSON...).
    case protocolError(String)
    /// The server refused the application id or REST API key (HTTP status).
    case keysRefused(wall: String, status: Int)
    /// The operation needs the master key and none was given.
    case masterKeyMissing(wall: String)
    /// The server refused the master key; its reason.
    case masterKeyRefused(wall: String, reason: String)
    /// The server forbids the operation (Parse's 119): on a fresh Parse Server, until the
    /// `Posts` class exists.
    case operationForbidden(wall: String, reason: String)
    /// The server refused the request for another reason: its message, Parse code or HTTP status.
    case requestRefused(wall: String, reason: String, code: Int?, status: Int)
    /// `cache-only` asked, and nothing is cached for the question.
    case noCachedAnswer
    /// The wall does not offer this yet (a Parse Server without what the feature needs).
    case unsupported(wall: String, feature: String)
    /// Only the wall's moderators may do this, and the user is not one.
    case notModerator(wall: String, username: String)
    /// The identity (`authData`) of `provider` is another account's already.
    case identityTaken(provider: String)
    /// Unlinking `provider` would leave the account no way to log in: no password and no other identity.
    case lastWayToLogIn(provider: String)

    // MARK: Location

    /// No location fix could be had from the source; the reason says which and how long.
    case noFix(String)
    /// A location service (gpsd) cannot be reached.
    case sourceUnreachable(String)

    /// Anything else: a bug or an unexpected state of the wall.
    case failure(String)

    /// The fact of the matter in a few plain words, for a library that folds one error into another
    /// (an import record's rejection, a config warning) and for logs. No hint, no command to run:
    /// the CLI words errors for people (`ErrorWording`).
    public var reason: String {
        switch self {
        case .inputRejected(let why), .objectTooLarge(let why), .fileUnreadable(let why), .backendUnreachable(let why), .protocolError(let why),
             .noFix(let why), .sourceUnreachable(let why), .failure(let why):
            return why
        case .notLoggedIn: return "not logged in"
        case .usernameTaken(let username): return "the username '\(username)' is already taken"
        case .badCredentials: return "invalid username/password"
        case .noPassword(let username): return "\(username) has no password yet"
        case .sessionExpired: return "the session has expired or was ended"
        case .accountRefused(let wall, let why): return "\(wall) refused the account: \(why)"
        case .noSessionGiven(let wall): return "\(wall) sent no session"
        case .loginMethodUnavailable(let wall, let method, let why): return "\(wall) cannot log in with \(method.displayName): \(why)"
        case .notLinked(let method): return "the account has no \(method.displayName) login to unlink"
        case .facebookAppMissing(let keys): return "no Facebook app: \(keys.joined(separator: " and ")) set neither in the wall's config nor in settings"
        case .facebookRefused(let why): return "Facebook refused: \(why)"
        case .deviceLoginExpired: return "the Facebook login code expired before it was approved (or it was denied)"
        case .notWritable(let objectId): return "post \(objectId) does not exist or is not yours to change"
        case .duplicateRequest: return "the wall has this request already"
        case .fieldTypeMismatch(let field, let expected, let given): return "schema mismatch for Posts.\(field); expected \(expected) but got \(given)"
        case .postRefused(let wall, let why): return "\(wall) refused the post: \(why)"
        case .keysRefused(let wall, let status): return "\(wall) refused the application id or REST API key (HTTP \(status))"
        case .masterKeyMissing(let wall): return "\(wall) needs its master key for this"
        case .masterKeyRefused(let wall, let why): return "\(wall) refused the master key (\(why))"
        case .operationForbidden(let wall, let why): return "\(wall) refused: \(why) (Parse error 119)"
        case .requestRefused(let wall, let why, let code, let status):
            return "\(wall) refused the request: \(why) (\(code.map { "Parse error \($0)" } ?? "HTTP \(status)"))"
        case .noCachedAnswer: return "no cached answer to this question yet (cache-only)"
        case .unsupported(let wall, let feature): return "\(wall) does not offer \(feature) yet"
        case .notModerator(let wall, let username): return "\(username) is not a moderator of \(wall)"
        case .identityTaken(let provider): return "this \(provider) identity is another account's already"
        case .lastWayToLogIn(let provider): return "\(provider) is the account's last way to log in (no password, no other identity)"
        }
    }

    /// Whether the wall is out of reach or not answering sense, for now: a cached answer may stand
    /// in, and a post waits in the outbox.
    public var isOutage: Bool {
        switch self {
        case .backendUnreachable, .protocolError: return true
        default: return false
        }
    }

    /// Whether a queued post must keep waiting rather than be set aside: the wall is out of reach,
    /// or the set-up is wrong (the session, the keys, a class not created, too many requests),
    /// which says nothing about the post itself. Only a refusal of the post sets it aside.
    public var keepsPostWaiting: Bool {
        switch self {
        case .backendUnreachable, .protocolError, .sessionExpired, .notLoggedIn, .keysRefused, .masterKeyMissing,
             .masterKeyRefused, .operationForbidden, .noSessionGiven, .badCredentials, .noPassword:
            return true
        case .requestRefused(_, _, let code, let status):
            // Parse's 155 and HTTP 429: rate limited; 5xx is an outage.
            return code == 155 || status == 429 || status >= 500
        default:
            return false
        }
    }
}
