/// What went wrong, in the categories a user (and a shell script) needs to tell apart.
///
/// The core library only names the category; the CLI maps each one to its exit code.
public enum AnywallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Something the user typed or piped in is not acceptable (coordinates, distances, text...).
    case inputRejected(String)
    /// The command needs a session and there is none.
    case notLoggedIn(String)
    /// The backend refused the credentials, a key, or the operation.
    case authFailed(String)
    /// The backend no longer knows the cached session (revoked, expired): it must be forgotten.
    case sessionExpired(String)
    /// No location fix could be had from the source.
    case noFix(String)
    /// The backend (a server, or the wall file) cannot be reached or opened.
    case backendUnreachable(String)
    /// The server answered something that is not the protocol it speaks (e.g. malformed JSON).
    case protocolError(String)
    /// A location service (gpsd) cannot be reached.
    case sourceUnreachable(String)
    /// A file the user named cannot be read.
    case fileUnreadable(String)
    /// Anything else: a bug or an unexpected state of the wall.
    case failure(String)

    /// The one-line message shown to the user.
    public var message: String {
        switch self {
        case .inputRejected(let m), .notLoggedIn(let m), .authFailed(let m), .sessionExpired(let m), .noFix(let m),
             .backendUnreachable(let m), .protocolError(let m), .sourceUnreachable(let m), .fileUnreadable(let m),
             .failure(let m):
            return m
        }
    }

    public var description: String { message }

    /// Whether the wall is out of reach or not answering sense, for now: a cached answer may stand
    /// in, and a post waits in the outbox.
    public var isOutage: Bool {
        switch self {
        case .backendUnreachable, .protocolError: return true
        default: return false
        }
    }
}
