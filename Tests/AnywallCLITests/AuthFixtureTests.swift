import Foundation
import TestSupport
import Testing

/// Issue 35's requests to a Parse Server, replayed from `fixtures/parse/` (each must match the
/// recorded one), with Facebook's Graph API played by `fake_facebook.py`: the device login
/// (code shown, polls at Facebook's interval, pending, slow down, expired, Ctrl-C), token
/// log-in, the name saved, link and unlink; and no token in anything anywall writes.
@Suite("login --facebook, signup --anonymous, link, unlink against the Parse fixtures")
struct AuthFixtureTests {
    static let alice = "r:3f1b2c5d8e9a4b7c6d5e4f3a2b1c0d9e"

    /// A sandbox whose settings name the fake's Facebook app, and the environment that points
    /// anywall at `server` and `facebook`.
    private func sandbox(_ server: TestHTTPServer, _ facebook: FakeFacebook, app: Bool = true,
                         session: String? = nil) throws -> (box: Sandbox, environment: [String: String]) {
        let box = try Sandbox()
        if app {
            let settings = box.home.appendingPathComponent(".config/anywall/settings.json")
            try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
            try #"{"facebook-app-id":"\#(FakeFacebook.appId)","facebook-client-token":"\#(FakeFacebook.clientToken)"}"#
                .write(to: settings, atomically: true, encoding: .utf8)
        }
        if let session {
            try FileManager.default.createDirectory(at: box.sessionFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try session.write(to: box.sessionFile, atomically: true, encoding: .utf8)
        }
        return (box, Sandbox.parseEnvironment(server.parseURL).merging(facebook.cliEnvironment) { $1 })
    }

    /// alice's session on `server`, as a password log-in leaves it.
    private func aliceSession(_ server: TestHTTPServer) -> String {
        #"{"backend":"\#(server.parseURL)","token":"\#(Self.alice)","user":{"objectId":"gK9sQ2xLmA","username":"alice","name":"Alice Liddell","logins":["password"]}}"#
    }

    private func expectReplayed(_ server: TestHTTPServer, _ runs: Any...) throws {
        let report = try server.report()
        #expect(report.mismatches.isEmpty, "\(report.mismatches)\n\(runs)")
        #expect(report.unused.isEmpty, "never asked: \(report.unused)\n\(runs)")
    }

    @Test("device login: the code on stderr and as JSON, polls at Facebook's interval while pending, then authData, the name, a 0600 session")
    func deviceLogin() throws {
        let server = try TestHTTPServer.replaying(["login-facebook-new", "users-set-name"])
        let facebook = try FakeFacebook(secret: nil, interval: 1)
        let (box, environment) = try sandbox(server, facebook)
        let run = try DeviceLoginRun(box, environment: environment)
        let (process, userCode) = (run.process, run.userCode)
        // Left pending for three polls.
        #expect(run.waitForPolls(3, on: facebook))
        try facebook.approve(userCode)
        let end = process.finish()
        #expect(end.status == Exit.success && !end.bySignal, "\(process.stderr)")
        #expect(process.stderr.hasSuffix("Signed up with Facebook and logged in as Alice Example.\n"), "\(process.stderr)")
        let polls = try facebook.pollTimes()
        #expect(polls.count >= 4 && zip(polls, polls.dropFirst()).allSatisfy { $1 - $0 >= 0.95 }, "polled too often: \(polls)")
        // Facebook's client token is not a secret; the user's access token never shows.
        let session = try String(contentsOf: box.sessionFile, encoding: .utf8)
        #expect(session.contains("r:0f1e2d3c4b5a69788796a5b4c3d2e1f0") && !session.contains("tok-"))
        #expect((try FileManager.default.attributesOfItem(atPath: box.sessionFile.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(!process.stderr.contains("tok-") && !process.lines.joined().contains("tok-"))
        try expectReplayed(server, "\(process.stderr)")
    }

    @Test("device login: told to slow down, anywall waits 5 s longer between polls from then on")
    func slowDown() throws {
        let server = try TestHTTPServer.replaying(["login-facebook-new", "users-set-name"])
        let facebook = try FakeFacebook(secret: nil, interval: 1)
        let (box, environment) = try sandbox(server, facebook)
        let run = try DeviceLoginRun(box, environment: environment)
        let (process, userCode) = (run.process, run.userCode)
        #expect(run.waitForPolls(1, on: facebook))
        // Another poller with the same code makes anywall's next poll come too soon.
        Thread.sleep(forTimeInterval: 0.4)
        try facebook.pollAsAnotherDevice()
        // anywall's own polls: the second is refused (slow down), the third comes 6 s after it.
        #expect(run.waitForPolls(4, on: facebook))
        try facebook.approve(userCode)
        #expect(process.finish(timeout: .seconds(20)).status == Exit.success, "\(process.stderr)")
        let polls = try facebook.pollTimes()
        // polls: anywall's 1st, the other poller's, anywall's 2nd (slow down), anywall's 3rd, ...
        #expect(polls.count >= 5 && polls[3] - polls[2] >= 5.9, "\(polls)")
        try expectReplayed(server, "\(process.stderr)")
    }

    @Test("device login: an expired code (or a denied login) ends with its own exit code and one line; no session", arguments: [false, true])
    func expired(_ denied: Bool) throws {
        let server = try TestHTTPServer.replaying([])
        let facebook = try FakeFacebook(secret: nil, interval: 1, expiresIn: denied ? 60 : 2)
        let (box, environment) = try sandbox(server, facebook)
        let run = try DeviceLoginRun(box, environment: environment)
        let (process, userCode) = (run.process, run.userCode)
        if denied { try facebook.deny(userCode) }
        let end = process.finish(timeout: .seconds(15))
        #expect(end.status == Exit.loginNotApproved && process.stderr.hasSuffix(
            "anywall: the Facebook login code expired before it was approved (or it was denied): run 'anywall login --facebook' again\n"), "\(process.stderr)")
        #expect(!FileManager.default.fileExists(atPath: box.sessionFile.path))
        try expectReplayed(server, "\(process.stderr)")
    }

    @Test("Ctrl-C while the device login waits ends anywall by the signal, without a stack trace or a session", arguments: [SIGINT, SIGTERM])
    func cancelled(_ signal: Int32) throws {
        let server = try TestHTTPServer.replaying([])
        let facebook = try FakeFacebook(secret: nil, interval: 1)
        let (box, environment) = try sandbox(server, facebook)
        let run = try DeviceLoginRun(box, environment: environment)
        let process = run.process
        process.signal(signal)
        let end = process.finish()
        #expect(end.bySignal && end.status == signal, "\(end) \(process.stderr)")
        #expect(process.stderr.hasSuffix("anywall: Facebook login cancelled\n"), "\(process.stderr)")
        #expect(!FileManager.default.fileExists(atPath: box.sessionFile.path))
        try expectReplayed(server, "\(process.stderr)")
    }

    @Test("with no Facebook app in settings or the wall's config, the device login says which keys are missing (exit 78)")
    func appMissing() throws {
        let server = try TestHTTPServer.replaying(["config"])
        let facebook = try FakeFacebook(secret: nil)
        let (box, environment) = try sandbox(server, facebook, app: false)
        let run = try box.run(["login", "--facebook"], environment: environment)
        #expect(run.status == Exit.notConfigured && run.stderr.hasPrefix("anywall: no Facebook app: facebookAppId and facebookClientToken set neither in the wall's config nor in settings")
                && run.stderr.contains("anywall settings set facebook-app-id ID"), "\(run)")
        try expectReplayed(server, run)
    }

    @Test("token log-in creates the user (201), then logs the same user in (200); the name from /me is saved each time")
    func tokenLogin() throws {
        let server = try TestHTTPServer.replaying(["login-facebook-new", "users-set-name", "login-facebook-existing", "users-set-name"])
        let facebook = try FakeFacebook(secret: nil)
        let (box, environment) = try sandbox(server, facebook, app: false)
        let first = try box.run(["login", "--facebook", "--token-stdin"], input: "tok-alice\n", environment: environment)
        #expect(first.status == Exit.success && first.stderr == "Signed up with Facebook and logged in as Alice Example.\n", "\(first)")
        let tokenFile = box.home.appendingPathComponent("fb.token")
        try "tok-alice\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        let again = try box.run(["login", "--facebook", "--token-file", tokenFile.path], environment: environment)
        #expect(again.status == Exit.success && again.stderr == "Logged in with Facebook as Alice Example.\n", "\(again)")
        let me = try facebook.requests().filter { $0["path"] as? String == "/me" }
        #expect(me.count == 2 && me.allSatisfy { ($0["params"] as? [String: String])?["fields"] == "id,name" }, "\(me)")
        #expect(!(try String(contentsOf: box.sessionFile, encoding: .utf8)).contains("tok-alice"))
        try expectReplayed(server, first, again)
    }

    @Test("a token Facebook refuses stops at /me (77, Facebook's words); one the server refuses (101) says so too, never with the token")
    func tokenRefused() throws {
        let server = try TestHTTPServer.replaying(["login-facebook-invalid"])
        let facebook = try FakeFacebook(secret: nil)
        let (box, environment) = try sandbox(server, facebook, app: false)
        let expired = try box.run(["login", "--facebook", "--token-stdin"], input: "tok-expired\n", environment: environment)
        #expect(expired.status == Exit.authFailed && expired.stderr == "anywall: Facebook refused: Error validating access token: Session has expired. (Graph API error 190)\n", "\(expired)")
        let other = try box.run(["login", "--facebook", "--token-stdin"], input: "tok-otherapp\n", environment: environment)
        #expect(other.status == Exit.authFailed && other.stderr == "anywall: Facebook refused: Facebook auth is invalid for this user.\n", "\(other)")
        #expect(!(expired.stderr + other.stderr).contains("tok-"))
        #expect(!FileManager.default.fileExists(atPath: box.sessionFile.path))
        try expectReplayed(server, expired, other)
    }

    @Test("link, then unlink Facebook on a password account; a link already used elsewhere is refused (208)")
    func linkAndUnlink() throws {
        let server = try TestHTTPServer.replaying(["link-facebook", "users-me-facebook", "unlink-facebook", "link-facebook-taken"])
        let facebook = try FakeFacebook(secret: nil)
        let (box, environment) = try sandbox(server, facebook, app: false, session: aliceSession(server))
        let link = try box.run(["link", "--facebook", "--token-stdin"], input: "tok-alice\n", environment: environment)
        #expect(link.status == Exit.success && link.stderr == "Linked Facebook (Alice Example) to alice.\n", "\(link)")
        let unlink = try box.run(["unlink", "--facebook"], environment: environment)
        #expect(unlink.status == Exit.success && unlink.stderr == "Unlinked Facebook from alice.\n", "\(unlink)")
        let taken = try box.run(["link", "--facebook", "--token-stdin"], input: "tok-alice\n", environment: environment)
        #expect(taken.status == Exit.inputRejected && taken.stderr == "anywall: this facebook identity is another account's already\n", "\(taken)")
        try expectReplayed(server, link, unlink, taken)
    }

    @Test("unlinking Facebook from an account it is the only way into is refused in one line (77), and nothing is sent")
    func lastUnlinkRefused() throws {
        let server = try TestHTTPServer.replaying(["login-facebook-new", "users-set-name", "users-me-facebook-only"])
        let facebook = try FakeFacebook(secret: nil)
        let (box, environment) = try sandbox(server, facebook, app: false)
        #expect(try box.run(["login", "--facebook", "--token-stdin"], input: "tok-alice\n", environment: environment).status == Exit.success)
        let unlink = try box.run(["unlink", "--facebook"], environment: environment)
        #expect(unlink.status == Exit.authFailed && unlink.stderr.split(separator: "\n").count == 1
                && unlink.stderr.hasPrefix("anywall: facebook is the account's last way to log in"), "\(unlink)")
        try expectReplayed(server, unlink)
    }

    @Test("signup --anonymous sends a random UUID; signup --username converts it and keeps the new session Parse gives")
    func anonymous() throws {
        let server = try TestHTTPServer.replaying(["signup-anonymous", "users-convert-taken", "users-convert"])
        let facebook = try FakeFacebook(secret: nil)
        let (box, environment) = try sandbox(server, facebook, app: false)
        #expect(try box.run(["signup", "--anonymous"], environment: environment).status == Exit.success)
        let taken = try box.run(["signup", "--username", "alice", "--password-stdin"], input: "x y z\n", environment: environment)
        #expect(taken.status == Exit.inputRejected && taken.stderr == "anywall: the username 'alice' is already taken\n", "\(taken)")
        let convert = try box.run(["signup", "--username", "carol", "--password-stdin"], input: "x y z\n", environment: environment)
        #expect(convert.status == Exit.success, "\(convert)")
        let session = try String(contentsOf: box.sessionFile, encoding: .utf8)
        #expect(session.contains("r:5c4b3a29180716253443526170819a0b") && session.contains("Qn4Tz8WcYe") && session.contains("carol"), "\(session)")
        try expectReplayed(server, taken, convert)
    }
}
