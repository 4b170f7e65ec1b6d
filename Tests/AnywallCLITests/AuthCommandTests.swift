import Foundation
import TestSupport
import Testing

/// Issue 35 on the embedded wall and on any wall: anonymous accounts made, converted and logged
/// out of; Facebook refused by the embedded wall before any of Facebook's steps.
@Suite("signup --anonymous, login --facebook, link, unlink: every wall")
struct AuthCommandTests {
    static let here = ["--at", "37.7793,-122.4193"]

    @Test("an anonymous sign-up posts, votes and replies; signup --username converts it, keeping its objectId and all it wrote",
          arguments: WallKind.allCases)
    func anonymousConverted(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("bob")
        let bobs = try box.run(["post", "Street fair on Saturday"] + Self.here).stdout.trimmingCharacters(in: .newlines)
        #expect(try box.run(["logout"]).status == Exit.success)
        let signup = try box.run(["signup", "--anonymous"])
        try #require(signup.status == Exit.success && signup.stderr.hasPrefix("Signed up anonymously"), "\(signup)")
        #expect(try box.run(["whoami"]).stdout.contains(" (anonymous) on "))
        let before = try box.run(["whoami", "--json"]).json as! [String: Any]
        let post = try box.run(["post", "Free coffee"] + Self.here).stdout.trimmingCharacters(in: .newlines)
        #expect(try box.run(["vote", bobs, "up"] + Self.here).status == Exit.success)
        #expect(try box.run(["reply", bobs, "Which street?"] + Self.here).status == Exit.success)

        let convert = try box.run(["signup", "--username", "carol", "--name", "Carol C", "--password-stdin"], input: "carol's secret\n")
        try #require(convert.status == Exit.success && convert.stderr.contains("keeping the anonymous account's posts"), "\(convert)")
        let after = try box.run(["whoami", "--json"]).json as! [String: Any]
        #expect(after["objectId"] as? String == before["objectId"] as? String && after["username"] as? String == "carol", "\(before) \(after)")
        let posts = try box.run(["nearby"] + Self.here + ["--json"]).json as! [[String: Any]]
        let mine = posts.first { $0["objectId"] as? String == post }, voted = posts.first { $0["objectId"] as? String == bobs }
        #expect(mine?["author"] as? String == "Carol C", "\(posts)")
        #expect(voted?["score"] as? Int == 1 && voted?["replyCount"] as? Int == 1 && voted?["myVote"] as? String == "up", "\(posts)")
        // A password account now: it logs out without a warning, and logs in again.
        let logout = try box.run(["logout"])
        #expect(logout.status == Exit.success && !logout.stderr.contains("warning"), "\(logout)")
        #expect(try box.run(["login", "--username", "carol", "--password-stdin"], input: "carol's secret\n").status == Exit.success)
        #expect((try box.run(["whoami", "--json"]).json as! [String: Any])["objectId"] as? String == before["objectId"] as? String)
    }

    @Test("logout of an anonymous account warns; off a terminal it needs --force, and the session file is 0600 meanwhile",
          arguments: WallKind.allCases)
    func anonymousLogout(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try #require(try box.run(["signup", "--anonymous"]).status == Exit.success)
        #expect((try FileManager.default.attributesOfItem(atPath: box.sessionFile.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let refused = try box.run(["logout"])
        #expect(refused.status == Exit.usage && refused.stderr.contains("warning: ") && refused.stderr.contains("nobody can log in to it again")
                && refused.stderr.contains("--force"), "\(refused)")
        #expect(try box.run(["whoami"]).status == Exit.success, "still logged in")
        let forced = try box.run(["logout", "--force"])
        #expect(forced.status == Exit.success && forced.stderr.contains("nobody can log in to it again"), "\(forced)")
        #expect(try box.run(["whoami"]).status == Exit.authFailed)
    }

    @Test("on a terminal, logout of an anonymous account asks: n keeps it, y logs out", arguments: ["n", "y"])
    func anonymousLogoutAsks(_ answer: String) throws {
        let box = try Sandbox()
        try #require(try box.run(["signup", "--anonymous"]).status == Exit.success)
        let terminal = try PseudoTerminal()
        let process = try terminal.start(box, ["logout"])
        var shown = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while !shown.contains("[y/N] "), ContinuousClock.now < deadline { shown += terminal.readAvailable(timeout: .milliseconds(50)) }
        terminal.send(answer + "\n")
        process.waitUntilExit()
        shown += terminal.readAvailable()
        #expect(process.terminationStatus == Exit.success && shown.contains("anonymous account"), "\(shown)")
        #expect(shown.contains(answer == "y" ? "Logged out" : "Still logged in."), "\(shown)")
        #expect(try box.run(["whoami"]).status == (answer == "y" ? Exit.authFailed : Exit.success))
    }

    @Test("--anonymous with a username, --facebook with a password, token options without --facebook: usage errors")
    func flagMistakes() throws {
        let box = try Sandbox()
        for arguments in [["signup", "--anonymous", "--username", "x"], ["login", "--facebook", "--username", "x"],
                          ["login", "--token-stdin", "--username", "x"], ["link"], ["unlink"]] {
            let run = try box.run(arguments)
            #expect(run.status == Exit.usage && run.stderr.hasPrefix("anywall: "), "\(arguments): \(run)")
        }
    }

    @Test("the embedded wall refuses Facebook in one line before asking Facebook anything; nothing to unlink there")
    func embeddedRefusesFacebook() throws {
        let facebook = try FakeFacebook(secret: nil)
        let box = try Sandbox()
        let login = try box.run(["login", "--facebook"], environment: facebook.cliEnvironment)
        #expect(login.status == Exit.unreachable && login.stderr.split(separator: "\n").count == 1
                && login.stderr.contains("cannot log in with Facebook: it cannot check a Facebook token offline"), "\(login)")
        try box.signUp("alice")
        let link = try box.run(["link", "--facebook", "--token-stdin"], input: "tok-alice\n", environment: facebook.cliEnvironment)
        #expect(link.status == Exit.unreachable && link.stderr.contains("offline"), "\(link)")
        let unlink = try box.run(["unlink", "--facebook"])
        #expect(unlink.status == Exit.inputRejected && unlink.stderr == "anywall: the account has no Facebook login to unlink\n", "\(unlink)")
        let asked = try facebook.requests()
        #expect(asked.isEmpty, "Facebook was asked: \(asked)")
    }
}
