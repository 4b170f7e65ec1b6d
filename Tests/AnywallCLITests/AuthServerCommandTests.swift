import Foundation
import TestSupport
import Testing

/// The CLI against the real anywall-server checking Facebook tokens against `fake_facebook.py`
/// (on SQLite, or PostgreSQL with `ANYWALL_TEST_STORE=postgres`): the device login through to a
/// session, token log-in creating then logging in one user, the name from `/me`, link and unlink,
/// the last way in kept by the CLI and by the server; and no token in the server's log or the
/// CLI's stderr.
@Suite("login --facebook, link, unlink against anywall-server")
struct AuthServerCommandTests {
    /// A wall server that takes the stand-in's Facebook app, and a sandbox pointed at both.
    private struct Setup {
        let facebook: FakeFacebook
        let server: WallServer
        let box: Sandbox
        let environment: [String: String]

        init(interval: Int = 1, expiresIn: Int = 420) throws {
            // No app secret: the CLI calls /me itself and holds none (an app that requires the
            // proof has no client-side tokens).
            facebook = try FakeFacebook(secret: nil, interval: interval, expiresIn: expiresIn)
            box = try Sandbox()
            server = try WallServer(store: box.home.appendingPathComponent("server-wall.sqlite"), arguments: facebook.serverArguments)
            environment = Sandbox.parseEnvironment(server.parseURL).merging(facebook.cliEnvironment) { $1 }
        }

        @discardableResult
        func run(_ arguments: [String], input: String? = nil) throws -> Sandbox.Run {
            try box.run(arguments, input: input, environment: environment)
        }

        func whoami() throws -> [String: Any] {
            let run = try run(["whoami", "--json"])
            try #require(run.status == Exit.success, "\(run)")
            return run.json as? [String: Any] ?? [:]
        }

        /// The Facebook app in the wall's config, as Parse's settings page kept it.
        func configureApp() throws {
            let masterKey = ["--master-key-file", box.masterKeyFile.path]
            #expect(try run(["config", "set", "facebookAppId", "\"\(FakeFacebook.appId)\""] + masterKey).status == Exit.success)
            #expect(try run(["config", "set", "facebookClientToken", "\"\(FakeFacebook.clientToken)\""] + masterKey).status == Exit.success)
        }
    }

    @Test("device login with the app from the wall's config: the code shown, polls at the interval while pending, then a session named from /me")
    func deviceLogin() throws {
        let setup = try Setup()
        try setup.configureApp()
        let run = try DeviceLoginRun(setup.box, environment: setup.environment)
        let (process, userCode) = (run.process, run.userCode)
        #expect(run.waitForPolls(2, on: setup.facebook))
        try setup.facebook.approve(userCode, as: "bob")
        let end = process.finish()
        #expect(end.status == Exit.success && process.stderr.hasSuffix("Signed up with Facebook and logged in as Bob Example.\n"), "\(process.stderr)")
        let polls = try setup.facebook.pollTimes()
        #expect(polls.count >= 3 && zip(polls, polls.dropFirst()).allSatisfy { $1 - $0 >= 0.95 }, "\(polls)")
        #expect(try setup.whoami()["name"] as? String == "Bob Example")
        // The server checked the device's token with Facebook itself.
        #expect(try setup.facebook.requests().contains { $0["path"] as? String == "/app" })
    }

    @Test("device login: slow down lengthens the wait by 5 s; an expired code is exit 67 and leaves no session")
    func slowDownThenExpired() throws {
        let setup = try Setup(interval: 1, expiresIn: 9)
        try setup.configureApp()
        let run = try DeviceLoginRun(setup.box, environment: setup.environment)
        let process = run.process
        #expect(run.waitForPolls(1, on: setup.facebook))
        Thread.sleep(forTimeInterval: 0.4)
        try setup.facebook.pollAsAnotherDevice()
        let end = process.finish(timeout: .seconds(30))
        #expect(end.status == Exit.loginNotApproved && process.stderr.contains("expired before it was approved"), "\(process.stderr)")
        let polls = try setup.facebook.pollTimes()
        // anywall's first, the other poller's, anywall's second (too soon: slow down), then 6 s on.
        #expect(polls.count >= 4 && polls[3] - polls[2] >= 5.9, "\(polls)")
        #expect(!FileManager.default.fileExists(atPath: setup.box.sessionFile.path))
    }

    @Test("token log-in creates the user, then logs the same user in; logout of it does not warn")
    func tokenLogin() throws {
        let setup = try Setup()
        let first = try setup.run(["login", "--facebook", "--token-stdin"], input: "tok-alice\n")
        #expect(first.status == Exit.success && first.stderr == "Signed up with Facebook and logged in as Alice Example.\n", "\(first)")
        let created = try setup.whoami()
        #expect(created["name"] as? String == "Alice Example")
        let logout = try setup.run(["logout"])
        #expect(logout.status == Exit.success && !logout.stderr.contains("warning"), "\(logout)")
        let again = try setup.run(["login", "--facebook", "--token-stdin"], input: "tok-alice\n")
        #expect(again.status == Exit.success && again.stderr == "Logged in with Facebook as Alice Example.\n", "\(again)")
        #expect(try setup.whoami()["objectId"] as? String == created["objectId"] as? String)
        let refused = try setup.run(["login", "--facebook", "--token-stdin"], input: "tok-otherapp\n")
        #expect(refused.status == Exit.authFailed && refused.stderr.hasPrefix("anywall: Facebook refused: "), "\(refused)")
    }

    @Test("link and unlink on a password account; a Facebook account linked elsewhere is refused; the last way in is kept by the CLI and by the server")
    func linkAndUnlink() throws {
        let setup = try Setup()
        #expect(try setup.run(["login", "--facebook", "--token-stdin"], input: "tok-bob\n").status == Exit.success)
        let bobSession = try String(contentsOf: setup.box.sessionFile, encoding: .utf8)
        let last = try setup.run(["unlink", "--facebook"])
        #expect(last.status == Exit.authFailed && last.stderr.hasPrefix("anywall: facebook is the account's last way to log in")
                && last.stderr.split(separator: "\n").count == 1, "\(last)")
        // A session that wrongly believes in a password: the server refuses it as well.
        try bobSession.replacingOccurrences(of: #""logins":["facebook"]"#, with: #""logins":["facebook","password"]"#)
            .write(to: setup.box.sessionFile, atomically: true, encoding: .utf8)
        let server = try setup.run(["unlink", "--facebook"])
        #expect(server.status == Exit.authFailed && server.stderr.hasPrefix("anywall: facebook is the account's last way to log in"), "\(server)")
        #expect(try setup.run(["logout"]).status == Exit.success)

        #expect(try setup.run(["signup", "--username", "alice", "--password-stdin"], input: "wonder land\n").status == Exit.success)
        let link = try setup.run(["link", "--facebook", "--token-stdin"], input: "tok-alice\n")
        #expect(link.status == Exit.success && link.stderr == "Linked Facebook (Alice Example) to alice.\n", "\(link)")
        let taken = try setup.run(["link", "--facebook", "--token-stdin"], input: "tok-bob\n")
        #expect(taken.status == Exit.inputRejected && taken.stderr == "anywall: this facebook identity is another account's already\n", "\(taken)")
        let unlink = try setup.run(["unlink", "--facebook"])
        #expect(unlink.status == Exit.success && unlink.stderr == "Unlinked Facebook from alice.\n", "\(unlink)")
        #expect(try setup.run(["link", "--facebook", "--token-stdin"], input: "tok-alice\n").status == Exit.success)
        // Linked: Facebook logs in to alice's account.
        let objectId = try setup.whoami()["objectId"] as? String
        #expect(try setup.run(["logout"]).status == Exit.success)
        let login = try setup.run(["login", "--facebook", "--token-stdin"], input: "tok-alice\n")
        #expect(login.status == Exit.success && login.stderr == "Logged in with Facebook as Alice Example.\n", "\(login)")
        #expect(try setup.whoami()["objectId"] as? String == objectId)
    }

    @Test("no access token in the server's log, the CLI's stderr or the session file, which is 0600")
    func noTokensShown() throws {
        let setup = try Setup()
        try setup.configureApp()
        let run = try DeviceLoginRun(setup.box, environment: setup.environment)
        let (process, userCode) = (run.process, run.userCode)
        try setup.facebook.approve(userCode)
        #expect(process.finish().status == Exit.success, "\(process.stderr)")
        let token = try setup.run(["link", "--facebook", "--token-stdin"], input: "tok-alice\n")
        let second = try setup.run(["login", "--facebook", "--token-stdin"], input: "tok-bob\n")
        let stderr = process.stderr + token.stderr + second.stderr
        #expect(!stderr.contains("tok-") && !process.lines.joined().contains("tok-"), "\(stderr)")
        #expect(!setup.server.log.contains("tok-"), "the server logged a token")
        let session = try String(contentsOf: setup.box.sessionFile, encoding: .utf8)
        #expect(!session.contains("tok-"))
        #expect((try FileManager.default.attributesOfItem(atPath: setup.box.sessionFile.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
