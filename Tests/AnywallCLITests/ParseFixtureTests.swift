import Foundation
import TestSupport
import Testing

/// Each command against `fixtures/parse/` replayed on 127.0.0.1: its requests must match the
/// recorded ones field for field (the server answers 599 and reports any difference), and the
/// recorded answers must come out as a user would expect.
@Suite("Parse REST fixtures")
struct ParseFixtureTests {
    static let alice = "r:3f1b2c5d8e9a4b7c6d5e4f3a2b1c0d9e"

    /// Runs `commands` in one sandbox against a server replaying `script`; checks every fixture
    /// was met in order and matched, and returns the runs.
    private func replay(_ script: [String], loggedIn: Bool = false, environment: [String: String] = [:],
                        _ commands: [(arguments: [String], input: String?)]) throws -> (box: Sandbox, runs: [Sandbox.Run]) {
        let server = try TestHTTPServer.replaying(script)
        let box = try Sandbox()
        let env = Sandbox.parseEnvironment(server.parseURL).merging(environment) { $1 }
        if loggedIn { try logIn(box, server: server.parseURL) }
        let runs = try commands.map { try box.run($0.arguments, input: $0.input, environment: env) }
        let report = try server.report()
        #expect(report.mismatches.isEmpty, "\(report.mismatches)\n\(runs)")
        #expect(report.unused.isEmpty, "never asked: \(report.unused)\n\(runs)")
        return (box, runs)
    }

    /// A session file for alice on `server`, as `login` leaves it.
    private func logIn(_ box: Sandbox, server: String) throws {
        let session = #"{"backend":"\#(server)","token":"\#(Self.alice)","user":{"objectId":"gK9sQ2xLmA","username":"alice","name":"Alice Liddell"}}"#
        try FileManager.default.createDirectory(at: box.sessionFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try session.write(to: box.sessionFile, atomically: true, encoding: .utf8)
    }

    @Test("signup sends the user with a public-read ACL and keeps the session (0600, no password)")
    func signup() throws {
        let (box, runs) = try replay(["signup"], [(["signup", "--username", "alice", "--name", "Alice Liddell", "--password-stdin"], "p_n7!-e8\n")])
        #expect(runs[0].status == Exit.success && runs[0].stderr == "Signed up and logged in as alice.\n", "\(runs[0])")
        let session = try String(contentsOf: box.sessionFile, encoding: .utf8)
        #expect(session.contains(Self.alice) && session.contains("gK9sQ2xLmA") && !session.contains("p_n7"))
        #expect((try FileManager.default.attributesOfItem(atPath: box.sessionFile.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("a taken username (202) and a wrong password (101, HTTP 404) are refused with the embedded wall's words")
    func refusals() throws {
        let taken = try replay(["signup-taken"], [(["signup", "--username", "alice", "--name", "Alice Liddell", "--password-stdin"], "x\n")]).runs[0]
        #expect(taken.status == Exit.inputRejected && taken.stderr == "anywall: the username 'alice' is already taken\n", "\(taken)")
        let wrong = try replay(["login-wrong-password"], [(["login", "--username", "alice", "--password-stdin"], "nope\n")]).runs[0]
        #expect(wrong.status == Exit.authFailed && wrong.stderr == "anywall: invalid username/password\n", "\(wrong)")
    }

    @Test("login, whoami and logout")
    func sessionLifecycle() throws {
        let (box, runs) = try replay(["login", "users-me", "karma", "logout"], [
            (["login", "--username", "alice", "--password-stdin"], "p_n7!-e8\n"), (["whoami"], nil), (["logout"], nil), (["whoami"], nil),
        ])
        #expect(runs[0].status == Exit.success, "\(runs[0])")
        #expect(runs[1].stdout.hasPrefix("alice (Alice Liddell) on the Parse Server at http://127.0.0.1:"), "\(runs[1])")
        #expect(runs[2].stderr == "Logged out alice.\n")
        #expect(runs[3].status == Exit.authFailed && runs[3].stderr.contains("not logged in"))
        #expect(!FileManager.default.fileExists(atPath: box.sessionFile.path))
    }

    @Test("209 on whoami forgets the session and says to log in again; on logout it is just logged out")
    func invalidSession() throws {
        let (box, runs) = try replay(["users-me-invalid-session"], loggedIn: true, [(["whoami"], nil)])
        #expect(runs[0].status == Exit.authFailed && runs[0].stderr.contains("log in again with 'anywall login'"), "\(runs[0])")
        #expect(!FileManager.default.fileExists(atPath: box.sessionFile.path))
        let out = try replay(["logout-invalid-session"], loggedIn: true, [(["logout"], nil)])
        #expect(out.runs[0].status == Exit.success && !FileManager.default.fileExists(atPath: out.box.sessionFile.path))
    }

    @Test("post fetches the config, then creates the post with a GeoPoint, a user Pointer, an ACL and a request id")
    func post() throws {
        let runs = try replay(["config", "create-post"], loggedIn: true, [(["post", "Free coffee", "--at", "37.7793,-122.4193"], nil)]).runs
        #expect(runs[0].status == Exit.success && runs[0].stdout == "Xq7Lp2sWkD\n", "\(runs[0])")
    }

    @Test("a server without the Posts class (119) says how to set it up, for post and nearby")
    func classMissing() throws {
        let post = try replay(["config", "create-post-class-missing"], loggedIn: true, [(["post", "Free coffee", "--at", "37.7793,-122.4193"], nil)]).runs[0]
        #expect(post.status == Exit.authFailed && post.stderr.contains("'anywall config init --master-key-file FILE'"), "\(post)")
        #expect(!post.stderr.contains("outbox"))
        let nearby = try replay(["nearby-class-missing"], [(["nearby", "--at", "37.7793,-122.4193"], nil)]).runs[0]
        #expect(nearby.status == Exit.authFailed && nearby.stderr.contains("config init"), "\(nearby)")
    }

    @Test("nearby sends $nearSphere with $maxDistanceInKilometers, include=user and the limit; authors show when included")
    func nearby() throws {
        let run = try replay(["nearby"], [(["nearby", "--at", "37.7793,-122.4193", "--json", "--radius", "100km"], nil)]).runs[0]
        #expect(run.status == Exit.success, "\(run)")
        let posts = run.json as! [[String: Any]]
        #expect(posts.count == 4)
        #expect(posts[0]["objectId"] as? String == "Xq7Lp2sWkD" && posts[0]["author"] as? String == "Alice Liddell")
        #expect(posts.map { $0["author"] is NSNull } == [false, true, true, false], "no user, or a bare Pointer: no author")
        let distances = posts.map { $0["distanceMeters"] as! Double }
        #expect(distances == distances.sorted() && distances[0] == 0)
    }

    @Test("config show, set with the master key from a file, and a refused master key")
    func config() throws {
        let show = try replay(["config"], [(["config", "show", "--json"], nil)]).runs[0]
        #expect(((show.json as! [String: Any])["params"] as! [String: Any])["postMaxCharacterCount"] as? Int == 140, "\(show)")
        let box = try Sandbox()
        let set = try replay(["config-set", "config-updated"], [(["config", "set", "postMaxCharacterCount", "200", "--master-key-file", box.masterKeyFile.path], nil)]).runs[0]
        #expect(set.status == Exit.success && set.stdout.contains("postMaxCharacterCount     200"), "\(set)")
        let refused = try replay(["config-set-no-master-key"], [(["config", "set", "postMaxCharacterCount", "200", "--master-key-stdin"], "wrong\n")]).runs[0]
        #expect(refused.status == Exit.authFailed && refused.stderr.contains("refused the master key"), "\(refused)")
        let none = try replay([], [(["config", "set", "postMaxCharacterCount", "200"], nil)]).runs[0]
        #expect(none.status == Exit.authFailed && none.stderr.contains("--master-key-file"), "\(none)")
    }

    @Test("config init creates the Posts class and seeds the missing defaults; again, it changes nothing")
    func initialize() throws {
        let box = try Sandbox()
        let key = ["--master-key-file", box.masterKeyFile.path]
        let fresh = try replay(["schema-create", "config-empty", "config-set-defaults", "config"], [(["config", "init"] + key, nil)]).runs[0]
        #expect(fresh.status == Exit.success && fresh.stdout.contains("postMaxCharacterCount     140"), "\(fresh)")
        let again = try replay(["schema-exists", "config"], [(["config", "init"] + key, nil)]).runs[0]
        #expect(again.status == Exit.success, "\(again)")
    }

    @Test("faults: each has its one-line message and exit code", arguments: [
        (["unauthorized"], [String](), Exit.authFailed, "refused the application id or REST API key (HTTP 403)"),
        (["server-error"], [], Exit.unreachable, "failed (HTTP 500: Internal server error.)"),
        (["nearby-malformed"], [], Exit.protocolError, "sent an answer anywall cannot read (HTTP 200"),
        (["nearby-slow"], ["ANYWALL_TIMEOUT=1s"], Exit.unreachable, "did not answer in time (no answer within 1 s)"),
        (["nearby-closed-mid-response", "nearby-closed-mid-response", "nearby-closed-mid-response"], [], Exit.unreachable, "lost the connection to"),
        (["invalid-query"], [], Exit.internalFailure, "refused the request: Invalid parameter for query: radius (Parse error 102)"),
    ])
    func faults(_ script: [String], _ environment: [String], _ status: Int32, _ message: String) throws {
        let env = Dictionary(uniqueKeysWithValues: environment.map { ($0.split(separator: "=").map(String.init)[0], $0.split(separator: "=").map(String.init)[1]) })
        let run = try replay(script, environment: env, [(["nearby", "--at", "37.7793,-122.4193"], nil)]).runs[0]
        #expect(run.status == status && run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.hasPrefix("anywall: ") && run.stderr.contains(message) && run.stderr.split(separator: "\n").count == 1, "\(run)")
    }

    @Test("a nearby query whose connection closes mid-response is tried again, and the second answer is used")
    func retryAfterClose() throws {
        let run = try replay(["nearby-closed-mid-response", "nearby"], [(["nearby", "--at", "37.7793,-122.4193", "--ndjson"], nil)]).runs[0]
        #expect(run.status == Exit.success && run.jsonLines.count == 4, "\(run)")
    }

    @Test("a post whose answer is lost waits in the outbox; the next command sends it with the same request id, and 159 means delivered")
    func outboxAfterLostAnswer() throws {
        let (box, runs) = try replay(["config", "create-post-response-lost", "create-post-retry-duplicate", "users-me", "karma", "users-me", "karma"], loggedIn: true, [
            (["post", "Free coffee", "--at", "37.7793,-122.4193"], nil), (["whoami"], nil), (["whoami"], nil),
        ])
        #expect(runs[0].status == Exit.success && runs[0].stdout.isEmpty && runs[0].stderr.contains("waits in the outbox"), "\(runs[0])")
        #expect(runs[1].status == Exit.success && runs[1].stderr.contains("the server had it already"), "\(runs[1])")
        #expect(!runs[2].stderr.contains("sent the post"), "sent once only: \(runs[2])")
        #expect(!FileManager.default.fileExists(atPath: box.home.appendingPathComponent(".local/state/anywall/outbox/outbox.json").path))
    }

    /// carol's post, where alice stands.
    static let cat = "Hc2Wv6RjPu"
    static let atCat = ["--at", "37.7694,-122.4862"]

    @Test("vote on a stock server: the post, the rules, a look for the account's vote, the Activity row, then Increment (refused by Anywall's ACL)")
    func vote() throws {
        let (_, runs) = try replay(["post-fetch", "config", "activity-my-vote-none", "activity-vote", "post-score-increment-forbidden", "post-fetch"],
                                   loggedIn: true, [(["vote", Self.cat, "up"] + Self.atCat, nil)])
        #expect(runs[0].status == Exit.success && runs[0].stdout == "score 0 (your vote: up)\n", "\(runs[0])")
    }

    @Test("reply on a stock server: the text checked against the config, a Posts object with a parent, the count by Increment, and the reply notice")
    func reply() throws {
        let (_, runs) = try replay(["config", "post-fetch", "config", "reply-create", "post-replycount-increment-forbidden", "activity-reply-notice"],
                                   loggedIn: true, [(["reply", Self.cat, "Seen it near the park"] + Self.atCat, nil)])
        #expect(runs[0].status == Exit.success && runs[0].stdout == "Rp3Nx7VcWb\n", "\(runs[0])")
    }

    @Test("thread on a stock server: the post, then its replies oldest first by their parent")
    func thread() throws {
        let (_, runs) = try replay(["post-fetch", "thread-replies"], loggedIn: true, [(["thread", Self.cat, "--json"] + Self.atCat, nil)])
        let thread = runs[0].json as? [[String: Any]] ?? []
        #expect(runs[0].status == Exit.success && thread.map { $0["text"] as? String } == ["Lost cat, grey tabby", "Seen it near the park"], "\(runs[0])")
        #expect(thread.last?["parent"] as? String == Self.cat)
    }

    @Test("report on a stock server: a look for the account's report, the Activity row for the reporter and role:moderators, then Increment")
    func report() throws {
        let (_, runs) = try replay(["post-fetch", "config", "activity-my-report-none", "activity-report", "post-reportcount-increment-forbidden"],
                                   loggedIn: true, [(["report", Self.cat, "--reason", "spam", "--note", "Same text on twenty posts"] + Self.atCat, nil)])
        #expect(runs[0].status == Exit.success, "\(runs[0])")
    }

    @Test("activity on a stock server: one query for the page, votes gathered per post")
    func activity() throws {
        let (_, runs) = try replay(["activity-feed"], loggedIn: true, [(["activity", "--json"], nil)])
        let feed = runs[0].json as? [[String: Any]] ?? []
        #expect(runs[0].status == Exit.success && feed.count == 1 && feed.first?["type"] as? String == "votes" && feed.first?["up"] as? Int == 2,
                "\(runs[0])")
    }

    @Test("moderate grant on a stock server: the user, the role moderators, made with its first user by the master key")
    func grant() throws {
        let server = try TestHTTPServer.replaying(["users-by-username", "roles-moderators-none", "roles-create-moderators"])
        let box = try Sandbox()
        let run = try box.run(["moderate", "grant", "bob", "--master-key-file", box.masterKeyFile.path],
                              environment: Sandbox.parseEnvironment(server.parseURL))
        let report = try server.report()
        #expect(report.mismatches.isEmpty && report.unused.isEmpty, "\(report.mismatches) \(report.unused)\n\(run)")
        #expect(run.status == Exit.success, "\(run)")
    }
}
