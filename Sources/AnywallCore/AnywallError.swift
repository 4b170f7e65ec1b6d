/// What went wrong, in the categories a user (and a shell script) needs to tell apart.
///
/// The core library only names the category; the CLI maps each one to its exit code.
public enum AnywallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Something the user typed or piped in is not acceptable (coordinates, distances, text...).
    case inputRejected(String)
    /// The command needs a session and there is none.
    case notLoggedIn(String)
    /// The backend refused the credentials or the session.
    case authFailed(String)
    /// No location fix could be had from the source.
    case noFix(String)
    /// The backend (a server, or the wall file) cannot be reached or opened.
    case backendUnreachable(String)
    /// A location service (gpsd) cannot be reached.
    case sourceUnreachable(String)
    /// A file the user named cannot be read.
    case fileUnreadable(String)
    /// Anything else: a bug or an unexpected state of the wall.
    case failure(String)

    /// The one-line message shown to the user.
    public var message: String {
        switch self {
        case .inputRejected(let m), .notLoggedIn(let m), .authFailed(let m), .noFix(let m),
             .backendUnreachable(let m), .sourceUnreachable(let m), .fileUnreadable(let m), .failure(let m):
            return m
        }
    }

    public var description: String { message }
}
