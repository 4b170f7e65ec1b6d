@testable import AnywallCLI
import Testing
import WallDomain

/// The CLI words the libraries' typed errors and picks their exit codes: one line, with what to
/// do where there is something to do.
@Suite("Errors as the CLI words them")
struct ErrorWordingTests {
    @Test("each account and key problem says what to run next, with the auth exit code",
          arguments: [
            (AnywallError.notLoggedIn, "run 'anywall login'"),
            (.sessionExpired, "log in again with 'anywall login'"),
            (.noPassword(username: "carol"), "'anywall passwd'"),
            (.keysRefused(wall: "the Parse Server at http://x/parse", status: 403), "check 'anywall settings show'"),
            (.masterKeyMissing(wall: "the Parse Server at http://x/parse"), "--master-key-file FILE, or --master-key-stdin"),
            (.operationForbidden(wall: "the Parse Server at http://x/parse", reason: "Permission denied"),
             "'anywall config init --master-key-file FILE'"),
          ])
    func hints(error: AnywallError, hint: String) {
        #expect(error.wording.contains(hint))
        #expect(!error.wording.contains("\n"))
        #expect(ExitStatus(error) == .authFailed)
    }

    @Test("refusals of what the user typed are input errors; outages are unreachable; nonsense is a protocol error")
    func exitCodes() {
        #expect(ExitStatus(.usernameTaken("alice")) == .inputRejected)
        #expect(AnywallError.usernameTaken("alice").wording == "the username 'alice' is already taken")
        #expect(ExitStatus(.postRefused(wall: "w", reason: "too long")) == .inputRejected)
        #expect(ExitStatus(.backendUnreachable("down")) == .backendUnreachable)
        #expect(ExitStatus(.noCachedAnswer) == .backendUnreachable)
        #expect(AnywallError.noCachedAnswer.wording.hasSuffix("ask once with the server in reach"))
        #expect(ExitStatus(.protocolError("not JSON")) == .protocolError)
        #expect(ExitStatus(.noSessionGiven(wall: "w")) == .protocolError)
        #expect(ExitStatus(.requestRefused(wall: "w", reason: "no", code: 102, status: 400)) == .internalFailure)
        #expect(ExitStatus(.badCredentials) == .authFailed && AnywallError.badCredentials.wording == "invalid username/password")
    }

    @Test("a server's words reach the terminal as text: control characters are shown as escapes")
    func inertText() {
        let hostile = "refused \u{1B}[2J\u{1B}]0;owned\u{07}\r\nanywall: fake line"
        let shown = Terminal.inert(AnywallError.requestRefused(wall: "w", reason: hostile, code: 141, status: 400).wording)
        #expect(shown.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
        #expect(shown.contains("\\u{1B}[2J") && shown.contains("\\r\\n"))
    }
}
