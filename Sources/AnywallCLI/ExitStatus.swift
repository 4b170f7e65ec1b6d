import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// anywall's exit codes (listed by `anywall --help` and the man page's EXIT STATUS). Errors use the BSD sysexits numbers where
/// one fits, so scripts can tell what went wrong without reading the message.
package enum ExitStatus: Int32, CaseIterable {
    case success = 0
    /// Success, but what was printed came from the cache, not the server (stale); or, for the
    /// config, Anywall's defaults because the server could not be asked.
    case stale = 3
    /// Bad flags or arguments (swift-argument-parser's code).
    case usage = 64
    /// Something typed or piped in was refused: coordinates, distances, text, settings.
    case inputRejected = 65
    /// A file named on the command line cannot be read.
    case fileUnreadable = 66
    /// Facebook's device login ended without a login: its code expired, or the login was denied.
    case loginNotApproved = 67
    /// The backend or gpsd cannot be reached, or the wall's file cannot be opened.
    case backendUnreachable = 69
    /// An internal error: a bug, or a damaged wall.
    case internalFailure = 70
    /// Results could not be written: stdout is full or closed.
    case outputFailed = 74
    /// The server answered something that is not the protocol it should speak (malformed JSON).
    case protocolError = 76
    /// No location fix could be had in time.
    case noFix = 75
    /// Not logged in, or the credentials or session were refused.
    case authFailed = 77
    /// Something the command needs is set nowhere: the Facebook app's id or client token.
    case notConfigured = 78

    /// What the code means, as the help lists it.
    var meaning: String {
        switch self {
        case .success: return "success"
        case .stale: return "success, but what was printed came from the cache (or, for config show, the defaults): the server was out of reach, or the cache policy read the cache"
        case .usage: return "usage error: unknown command (one line, with the closest one), unknown flag or missing argument (with the usage text), or a username or password that cannot be asked for off a terminal"
        case .inputRejected: return "input rejected: coordinates, distance, limit, text, setting, config value, taken username; import with skipped records"
        case .fileUnreadable: return "a file named on the command line cannot be read"
        case .loginNotApproved: return "login --facebook: the device login code expired before it was approved, or the login was denied"
        case .backendUnreachable: return "the server, Facebook or gpsd cannot be reached, timed out or failed, the wall's file cannot be opened, "
            + "or the wall does not offer the command (the embedded wall and Facebook)"
        case .internalFailure: return "internal error (a bug, or a damaged wall), or a server error anywall has no better word for"
        case .outputFailed: return "results could not be written to standard output (a full disk, a closed stdout)"
        case .protocolError: return "the server answered something that is not Parse's protocol"
        case .noFix: return "no location fix: no LOCATION given, none within --fix-timeout, or NMEA input that ended without one"
        case .authFailed: return "not logged in, wrong username or password, the session ended, a key was refused, not a moderator, "
            + "Facebook refused the token, or unlink --facebook refused to remove the account's last way to log in"
        case .notConfigured: return "the Facebook app's id or client token is set neither in the wall's config nor in settings"
        }
    }

    package init(_ error: AnywallError) {
        switch error {
        case .inputRejected, .objectTooLarge, .usernameTaken, .accountRefused, .postRefused, .notWritable, .fieldTypeMismatch,
             .notLinked, .identityTaken:
            self = .inputRejected
        case .notLoggedIn, .badCredentials, .noPassword, .sessionExpired, .keysRefused, .masterKeyMissing, .masterKeyRefused,
             .operationForbidden, .notModerator, .facebookRefused, .lastWayToLogIn:
            self = .authFailed
        case .deviceLoginExpired: self = .loginNotApproved
        case .facebookAppMissing: self = .notConfigured
        case .loginMethodUnavailable: self = .backendUnreachable
        case .noFix: self = .noFix
        case .backendUnreachable, .sourceUnreachable, .noCachedAnswer, .unsupported: self = .backendUnreachable
        case .fileUnreadable: self = .fileUnreadable
        case .protocolError, .noSessionGiven: self = .protocolError
        case .failure, .requestRefused, .duplicateRequest: self = .internalFailure
        }
    }

    var exitCode: ExitCode { ExitCode(rawValue) }
}
