import Foundation
import TestSupport
import Testing

@Suite("signup, login, logout, whoami, passwd")
struct AccountCommandTests {
    @Test("sign up, whoami in both formats, log out, log in again", arguments: WallKind.allCases)
    func lifecycle(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        let signup = try box.run(["signup", "--username", "alice", "--name", "Alice Liddell", "--password-stdin"], input: "wonder land\n")
        #expect(signup.status == Exit.success, "\(signup)")
        #expect(signup.stdout.isEmpty)
        let whoami = try box.run(["whoami"])
        #expect(whoami.stdout.hasPrefix("alice (Alice Liddell) on \(kind == .server ? "the Parse Server at" : "the embedded wall") "), "\(whoami)")
        let json = try box.run(["whoami", "--json"]).json as! [String: Any]
        #expect(json["username"] as? String == "alice" && json["name"] as? String == "Alice Liddell")
        #expect((json["backend"] as? String)?.hasPrefix(box.backendPrefix) == true)
        #expect(try box.run(["logout"]).status == Exit.success)
        let after = try box.run(["whoami"])
        #expect(after.status == Exit.authFailed && after.stderr.contains("not logged in"), "\(after)")
        #expect(try box.run(["login", "--username", "alice", "--password-stdin"], input: "wonder land\n").status == Exit.success)
        #expect(try box.run(["whoami", "--json"]).status == Exit.success)
    }

    @Test("a password or session is never sent over http:// to another machine: refused before any connection, with the way to https")
    func noSecretsInClear() throws {
        let box = try Sandbox(.embedded)
        let remote = ["PARSE_SERVER_URL": "http://wall.invalid/parse", "PARSE_APPLICATION_ID": Sandbox.applicationId]
        let login = try box.run(["login", "--username", "alice", "--password-stdin"], input: "wonder land\n", environment: remote)
        #expect(login.status == Exit.inputRejected, "\(login)")
        #expect(login.stderr.hasPrefix("anywall: refusing to send a password to http://wall.invalid/parse over unencrypted http://")
                && login.stderr.contains("https://") && login.stderr.split(separator: "\n").count == 1, "\(login)")
        #expect(!login.stderr.contains("wonder"))
        let signup = try box.run(["signup", "--username", "alice", "--password-stdin"], input: "wonder land\n", environment: remote)
        #expect(signup.status == Exit.inputRejected, "\(signup)")
    }

    @Test("whoami --json prints a name that is not set as null", arguments: WallKind.allCases)
    func nameNull(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("bob")
        let run = try box.run(["whoami", "--json"])
        #expect(run.stdout.contains("\"name\":null"), "\(run)")
    }

    @Test("a password typed differently the second time at sign-up is asked again")
    func passwordAskedAgain() throws {
        let box = try Sandbox()
        let terminal = try PseudoTerminal()
        let process = try terminal.start(box, ["signup", "--username", "ann"])
        var shown = ""
        func answer(after prompt: String, _ text: String) {
            let deadline = ContinuousClock.now + .seconds(10)
            while !shown.hasSuffix(prompt), ContinuousClock.now < deadline { shown += terminal.readAvailable(timeout: .milliseconds(50)) }
            terminal.send(text + "\n")
        }
        answer(after: "Password: ", "one secret")
        answer(after: "Password (again): ", "another secret")
        answer(after: "Password: ", "the secret")
        answer(after: "Password (again): ", "the secret")
        process.waitUntilExit()
        shown += terminal.readAvailable()
        #expect(process.terminationStatus == Exit.success, "\(shown)")
        #expect(shown.contains("anywall: the two passwords differ; type them again"), "\(shown)")
        #expect(try box.run(["login", "--username", "ann", "--password-stdin"], input: "the secret\n").status == Exit.success)
    }

    @Test("the session file is mode 0600 and holds no password", arguments: WallKind.allCases)
    func sessionFile(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("bob")
        let attributes = try FileManager.default.attributesOfItem(atPath: box.sessionFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let contents = try String(contentsOf: box.sessionFile, encoding: .utf8)
        #expect(!contents.contains("pw-bob"))
    }

    @Test("a wrong password, an unknown user and a taken username are refused with one line", arguments: WallKind.allCases)
    func refusals(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("carol")
        let wrong = try box.run(["login", "--username", "carol", "--password-stdin"], input: "nope\n")
        #expect(wrong.status == Exit.authFailed)
        #expect(wrong.stderr == "anywall: invalid username/password\n")
        #expect(!wrong.stderr.contains("nope"))
        let unknown = try box.run(["login", "--username", "nobody", "--password-stdin"], input: "x\n")
        #expect(unknown.status == Exit.authFailed)
        let taken = try box.run(["signup", "--username", "Carol", "--password-stdin"], input: "x\n")
        #expect(taken.status == Exit.inputRejected)
        #expect(taken.stderr == "anywall: the username 'Carol' is already taken\n")
    }

    @Test("passwords come from stdin or a file, never a flag; none at all is a usage error off a terminal", arguments: WallKind.allCases)
    func passwordSources(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        let file = box.home.appendingPathComponent("pw")
        try "from file\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try box.run(["signup", "--username", "dan", "--password-file", file.path]).status == Exit.success)
        #expect(try box.run(["login", "--username", "dan", "--password-stdin"], input: "from file").status == Exit.success)
        let flag = try box.run(["login", "--username", "dan", "--password", "from file"])
        #expect(flag.status == Exit.usage)
        let none = try box.run(["login", "--username", "dan"])
        #expect(none.status == Exit.usage && none.stderr.contains("--password-stdin"), "\(none)")
        let empty = try box.run(["login", "--username", "dan", "--password-stdin"], input: "\n")
        #expect(empty.status == Exit.inputRejected)
    }

    @Test("imported authors log in after passwd; passwd ends their sessions")
    func passwd() throws {
        let box = try Sandbox()
        let file = box.home.appendingPathComponent("posts.ndjson")
        try #"{"objectId":"p1","text":"old post","location":{"latitude":1,"longitude":2},"author":"erin"}"#
            .write(to: file, atomically: true, encoding: .utf8)
        #expect(try box.run(["import", file.path]).status == Exit.success)
        let locked = try box.run(["login", "--username", "erin", "--password-stdin"], input: "x\n")
        #expect(locked.status == Exit.authFailed && locked.stderr.contains("has no password yet"), "\(locked)")
        #expect(try box.run(["passwd", "--username", "erin", "--password-stdin"], input: "new\n").status == Exit.success)
        #expect(try box.run(["login", "--username", "erin", "--password-stdin"], input: "new\n").status == Exit.success)
        #expect(try box.run(["passwd", "--username", "erin", "--password-stdin"], input: "newer\n").status == Exit.success)
        let revoked = try box.run(["post", "hello", "--at", "1,2"])
        #expect(revoked.status == Exit.authFailed && revoked.stderr.contains("log in again"), "\(revoked)")
        #expect(try box.run(["whoami"]).stderr.contains("not logged in"))
        #expect(try box.run(["passwd", "--username", "ghost", "--password-stdin"], input: "x\n").status == Exit.inputRejected)
    }

    @Test("passwd and import, which write the wall's file, are refused while a server is the wall")
    func embeddedOnlyCommands() throws {
        let box = try Sandbox(.server)
        let passwd = try box.run(["passwd", "--username", "alice", "--password-stdin"], input: "pw\n")
        #expect(passwd.status == Exit.inputRejected && passwd.stderr.contains("works on the embedded wall"), "\(passwd)")
        let imported = try box.run(["import", "-"], input: #"{"text":"hi","latitude":1,"longitude":2}"# + "\n")
        #expect(imported.status == Exit.inputRejected && imported.stderr.contains("works on the embedded wall"), "\(imported)")
    }
}
