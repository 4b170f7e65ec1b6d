import AnywallSupport
import Foundation
import ParseClient
import WallDomain

/// Facebook's device login, as TV and command-line apps log in: a code shown for the user to
/// enter at facebook.com/device on any phone, then polls at the interval Facebook gives until it
/// is approved, denied or expired. Ctrl-C stops it between two polls and ends anywall by the signal.
struct FacebookDeviceLogin {
    let graph: FacebookGraph
    let app: FacebookApp
    /// Whether the code is also printed as one JSON object on stdout.
    let json: Bool

    /// How much longer to wait between polls each time Facebook says to slow down (RFC 8628's 5 s).
    static let slowDownStep = Duration.seconds(5)

    /// The shown code, as `--json` prints it.
    private struct Shown: Encodable {
        let user_code: String
        let verification_uri: String
        let expires_in: Int
        let interval: Int
    }

    /// The approved access token and its lifetime in seconds.
    func run() throws -> (accessToken: String, expiresIn: Int) {
        let stop = try StopSignal()
        let code = try graph.startDeviceLogin(appId: app.appId, clientToken: app.clientToken)
        let expiry = ContinuousClock.now + .seconds(code.expiresIn)
        Terminal.note("To log in with Facebook, open \(code.verificationURI) and enter the code \(code.userCode) "
                      + "(within \(code.expiresIn >= 120 ? "\(code.expiresIn / 60) minutes" : "\(code.expiresIn) seconds")). Waiting for it; Ctrl-C cancels.")
        if json {
            Terminal.output(JSONText.encode(Shown(user_code: code.userCode, verification_uri: code.verificationURI,
                                                  expires_in: code.expiresIn, interval: code.interval)) + "\n")
        }
        var interval = Duration.seconds(max(code.interval, 1))
        while true {
            stop.wait(until: ContinuousClock.now + interval)
            if stop.received != nil {
                Terminal.note("anywall: Facebook login cancelled")
                stop.endProcessBySignal()
            }
            // Facebook says when the code expired; a code well past its time is not polled forever.
            guard ContinuousClock.now < expiry + interval else { throw AnywallError.deviceLoginExpired }
            switch try graph.deviceLoginStatus(code: code.code, appId: app.appId, clientToken: app.clientToken) {
            case .pending:
                continue
            case .slowDown:
                interval += Self.slowDownStep
            case .expired:
                throw AnywallError.deviceLoginExpired
            case .approved(let accessToken, let expiresIn):
                return (accessToken, expiresIn)
            }
        }
    }
}
