import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The Parse backend when its server goes away and comes back: cached answers (stale), the
/// outbox delivering exactly once, the watch carrying on; and no secret in any output.
/// The server is `parse_wall_server.py` keeping its state in a file across restarts on one port.
@Suite("Parse backend: outages, outbox, secrets")
struct ParseOutageTests {
    /// A Parse stand-in that can be stopped (nothing listens: connections are refused) and
    /// started again on the same port with the same wall.
    final class RestartableServer {
        let state: URL
        private(set) var server: TestHTTPServer?
        let port: Int

        init(home: URL) throws {
            state = home.appendingPathComponent("server-state.pickle")
            let first = try TestHTTPServer(script: "parse_wall_server.py", arguments: Self.arguments(state, port: 0))
            server = first
            port = first.port
        }

        var url: String { "http://127.0.0.1:\(port)/parse" }

        func stop() {
            _ = server?.stop()
            server = nil
        }

        func start() throws {
            server = try TestHTTPServer(script: "parse_wall_server.py", arguments: Self.arguments(state, port: port))
        }

        /// Every post on the server with the request id that created it.
        func posts() throws -> [[String: Any]] {
            let data = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/__test/posts")!)
            return (try JSONSerialization.jsonObject(with: data) as! [String: Any])["results"] as! [[String: Any]]
        }

        private static func arguments(_ state: URL, port: Int) -> [String] {
            ["--posts-class-exists", "--test-hooks", "--state", state.path, "--port", "\(port)"]
        }

        deinit { stop() }
    }

    @Test("server down: nearby shows the cached answer (exit 3); posts wait in the outbox and arrive once, in order, when it is back")
    func outage() throws {
        let box = try Sandbox()
        let server = try RestartableServer(home: box.home)
        let env = Sandbox.parseEnvironment(server.url)
        func run(_ arguments: [String], input: String? = nil) throws -> Sandbox.Run {
            try box.run(arguments, input: input, environment: env)
        }
        #expect(try run(["signup", "--username", "alice", "--password-stdin"], input: "pw-alice\n").status == Exit.success)
        #expect(try run(["post", "before", "--at", "48.8566,2.3522"]).status == Exit.success)
        let fresh = try run(["nearby", "--at", "48.8566,2.3522", "--json"])
        #expect(fresh.status == Exit.success, "\(fresh)")

        server.stop()
        let stale = try run(["nearby", "--at", "48.8566,2.3522", "--json"])
        #expect(stale.status == Exit.stale && stale.stdout == fresh.stdout, "\(stale)")
        #expect(stale.stderr.contains("cannot reach the Parse Server") && stale.stderr.contains("stale"), "\(stale)")
        #expect(try run(["nearby", "--at", "48.8566,2.3522", "--json", "--cache-policy", "cache-only"]).status == Exit.stale)
        let thenNetwork = try run(["nearby", "--at", "48.8566,2.3522", "--json", "--cache-policy", "cache-then-network"])
        #expect(thenNetwork.status == Exit.stale && thenNetwork.stdout == fresh.stdout, "\(thenNetwork)")
        #expect(thenNetwork.stderr.contains("the cached answer above is all there is"), "\(thenNetwork)")
        let ignored = try run(["nearby", "--at", "48.8566,2.3522", "--json", "--cache-policy", "ignore-cache"])
        #expect(ignored.status == Exit.unreachable && ignored.stdout.isEmpty, "\(ignored)")
        let elsewhere = try run(["nearby", "--at", "10,10", "--json"])
        #expect(elsewhere.status == Exit.unreachable, "no cached answer for another place: \(elsewhere)")

        let first = try run(["post", "during the outage", "--at", "48.8567,2.3522"])
        #expect(first.status == Exit.success && first.stderr.contains("waits in the outbox"), "\(first)")
        let second = try run(["post", "-", "--at", "48.8568,2.3522", "--json"], input: "still down\n")
        let queued = second.json as! [String: Any]
        #expect(queued["queued"] as? Bool == true && queued["text"] as? String == "still down", "\(second)")
        let refused = try run(["post", "not queued", "--at", "48.8568,2.3522", "--no-queue"])
        #expect(refused.status == Exit.unreachable, "\(refused)")

        try server.start()
        let back = try run(["nearby", "--at", "48.8566,2.3522", "--json"])
        #expect(back.status == Exit.success, "\(back)")
        #expect(back.stderr.components(separatedBy: "sent the post queued").count == 3, "\(back)")
        #expect((back.json as! [[String: Any]]).count == 3)
        let both = try run(["nearby", "--at", "48.8566,2.3522", "--ndjson", "--cache-policy", "cache-then-network"])
        #expect(both.status == Exit.success && both.jsonLines.count == 6, "the cached answer, then the server's: \(both)")
        _ = try run(["whoami"])
        let posts = try server.posts()
        #expect(posts.map { $0["text"] as? String } == ["before", "during the outage", "still down"], "exactly once, in order")
        #expect(posts[2]["requestId"] as? String == queued["requestId"] as? String)
    }

    @Test("a post whose answer is lost mid-response is not doubled when the outbox sends it again")
    func lostAnswer() throws {
        let box = try Sandbox(.parse)
        try box.signUp("bob")
        try box.server!.fail(path: "/parse/classes/Posts", method: "POST", how: "close")
        let post = try box.run(["post", "once only", "--at", "1,2"])
        #expect(post.status == Exit.success && post.stderr.contains("lost the connection"), "\(post)")
        let next = try box.run(["nearby", "--at", "1,2", "--json"])
        #expect(next.stderr.contains("the server had it already"), "\(next)")
        #expect((next.json as! [[String: Any]]).map { $0["text"] as? String } == ["once only"])
    }

    @Test("a revoked session (209) is forgotten; the next command says not logged in")
    func revoked() throws {
        let box = try Sandbox(.parse)
        try box.signUp("carol")
        try box.server!.hook("revoke", ["username": "carol"])
        let post = try box.run(["post", "hello", "--at", "1,2"])
        #expect(post.status == Exit.authFailed && post.stderr.contains("log in again"), "\(post)")
        #expect(try box.run(["whoami"]).stderr.contains("not logged in"))
    }

    @Test("watch warns once when the server fails, keeps going, and picks up new posts when it is back")
    func watchSurvivesOutage() throws {
        let box = try Sandbox(.parse)
        try box.signUp("dan")
        #expect(try box.run(["post", "first", "--at", "1,2"]).status == Exit.success)
        try box.server!.fail(path: "/parse/classes/Posts", method: "GET", how: 500, times: 2)
        let watch = try LiveProcess(box, ["nearby", "--watch", "--at", "1,2", "--ndjson", "--interval", "0.2s"])
        #expect(watch.waitUntil { $0.stderr.contains("failed (HTTP 500") })
        #expect(watch.waitUntil { $0.jsonLines.count == 1 }, "\(watch.stderr)")
        #expect(try box.run(["post", "second", "--at", "1,2"]).status == Exit.success)
        #expect(watch.waitUntil { $0.jsonLines.count == 2 }, "\(watch.stderr)")
        watch.signal(SIGTERM)
        _ = watch.finish()
        #expect(watch.stderr.components(separatedBy: "failed (HTTP 500").count == 2, "warned once: \(watch.stderr)")
        #expect(watch.stderr.contains("answers again"))
    }

    @Test("no password, session token, master key or REST key appears in any output or error")
    func noSecretsInOutput() throws {
        let box = try Sandbox(.parse)
        let password = "correct horse battery staple"
        var outputs: [Sandbox.Run] = []
        func run(_ arguments: [String], input: String? = nil) throws {
            outputs.append(try box.run(arguments, input: input))
        }
        try run(["signup", "--username", "erin", "--password-stdin"], input: password + "\n")
        let token = try String(contentsOf: box.sessionFile, encoding: .utf8)
            .firstMatch(of: /"token":"([^"]+)"/).map { String($0.1) }!
        try run(["login", "--username", "erin", "--password-stdin"], input: password + "\n")
        try run(["login", "--username", "erin", "--password-stdin"], input: "wrong " + password + "\n")
        try run(["login", "--username", "erin", "--password-stdin"], input: password + "\n")
        try run(["whoami", "--json"])
        try run(["post", "hi", "--at", "1,2", "--json"])
        try run(["nearby", "--at", "1,2", "--json"])
        try run(["config", "set", "postMaxCharacterCount", "150", "--master-key-file", box.masterKeyFile.path])
        try run(["config", "set", "postMaxCharacterCount", "150", "--master-key-stdin"], input: "not the master key\n")
        try run(["settings", "show"])
        try run(["settings", "show", "--json"])
        try run(["whoami"])
        try box.server!.hook("revoke", ["username": "erin"])
        try run(["post", "after revoke", "--at", "1,2"])
        outputs.append(try box.run(["nearby", "--at", "1,2"], environment: ["PARSE_REST_API_KEY": "wrong-rest-key"]))
        let everything = outputs.map { $0.stdout + $0.stderr }.joined(separator: "\n")
        #expect(everything.contains("refused the master key") && everything.contains("invalid username/password"))
        for secret in [password, token, Sandbox.masterKey, "not the master key", Sandbox.restKey, "wrong-rest-key"] {
            #expect(!everything.contains(secret), "'\(secret)' was printed:\n\(everything)")
        }
        let settings = try box.run(["settings", "set", "rest-key", "-"], input: "a-rest-key-from-stdin\n")
        #expect(settings.status == Exit.success && !settings.stderr.contains("a-rest-key-from-stdin"), "\(settings)")
        #expect(!(try box.run(["settings", "show", "--json"]).stdout.contains("a-rest-key-from-stdin")))
        let file = box.home.appendingPathComponent(".config/anywall/settings.json")
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}

extension TestHTTPServer {
    /// Calls one of `parse_wall_server.py`'s `/__test` hooks.
    func hook(_ name: String, _ body: [String: Any]) throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/__test/\(name)")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: Error?
        URLSession.shared.dataTask(with: request) { _, response, error in
            failure = error ?? ((response as? HTTPURLResponse)?.statusCode == 200 ? nil : URLError(.badServerResponse))
            done.signal()
        }.resume()
        done.wait()
        if let failure { throw failure }
    }

    /// Makes the next `times` requests to `path` fail: an HTTP status, or "close", "malformed", "slow".
    func fail(path: String, method: String, how: Any, times: Int = 1) throws {
        try hook("fail", ["path": path, "method": method, "status": how, "times": times])
    }
}
