import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The Parse backend when its server goes away and comes back: cached answers (stale), the
/// outbox delivering exactly once, the watch carrying on; and no secret in any output.
/// The server is the real anywall-server, stopped (connections refused) and started again on the
/// same port with the same wall.
@Suite("Parse backend on anywall-server: outages, outbox, secrets")
struct ParseOutageTests {
    @Test("server down: nearby shows the cached answer (exit 3); posts wait in the outbox and arrive once, in order, when it is back")
    func outage() throws {
        let box = try Sandbox()
        let server = try WallServer(store: box.home.appendingPathComponent("server-wall.sqlite"))
        let env = Sandbox.parseEnvironment(server.parseURL)
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
        let posts = try server.send("GET", "/classes/Posts", query: ["order": "createdAt"]).json["results"] as! [[String: Any]]
        #expect(posts.map { $0["text"] as? String } == ["before", "during the outage", "still down"], "exactly once, in order")
        // The request id printed when the post was queued is the one the server recorded.
        let token = try Self.sessionToken(box)
        let again = try server.post("still down", latitude: 48.8568, longitude: 2.3522, token: token,
                                    requestId: queued["requestId"] as? String)
        #expect(again.status == 400 && again.json["code"] as? Int == 159, "\(again)")
    }

    /// The session token `anywall` keeps for the sandbox's user.
    @Test("server down: config show prints the cached copy once it is an hour old, else the defaults, with a warning and exit 3")
    func configOutage() throws {
        let box = try Sandbox()
        let server = try WallServer(store: box.home.appendingPathComponent("server-wall.sqlite"))
        let env = Sandbox.parseEnvironment(server.parseURL)
        func show() throws -> (run: Sandbox.Run, answer: [String: Any]) {
            let run = try box.run(["config", "show", "--json"], environment: env)
            return (run, run.json as! [String: Any])
        }
        let fresh = try show()
        #expect(fresh.run.status == Exit.success && fresh.answer["origin"] as? String == "backend", "\(fresh.run)")

        server.stop()
        let young = try show()
        #expect(young.run.status == Exit.success && young.answer["origin"] as? String == "cache" && young.run.stderr.isEmpty,
                "a copy younger than an hour is the config in use: \(young.run)")
        let folder = box.home.appendingPathComponent(".cache/anywall/config")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let aged = text.replacingOccurrences(of: #""fetchedAt":"[^"]*""#, with: #""fetchedAt":"2026-01-01T00:00:00.000Z""#,
                                                 options: .regularExpression)
            #expect(aged != text, "the cache file keeps its date as fetchedAt: \(text)")
            try aged.write(to: file, atomically: true, encoding: .utf8)
        }
        let stale = try show()
        #expect(stale.run.status == Exit.stale && stale.answer["origin"] as? String == "cache", "\(stale.run)")
        #expect(stale.run.stderr.contains("could not refresh the config") && stale.answer["params"] as? NSDictionary == fresh.answer["params"] as? NSDictionary,
                "\(stale.run)")

        for file in files { try FileManager.default.removeItem(at: file) }
        let defaults = try show()
        #expect(defaults.run.status == Exit.stale && defaults.answer["origin"] as? String == "defaults", "\(defaults.run)")
        #expect(defaults.run.stderr.contains("using the defaults"), "\(defaults.run)")
    }

    static func sessionToken(_ box: Sandbox) throws -> String {
        try String(contentsOf: box.sessionFile, encoding: .utf8).firstMatch(of: /"token":"([^"]+)"/).map { String($0.1) }!
    }

    @Test("a revoked session (209) is forgotten; the next command says not logged in")
    func revoked() throws {
        let box = try Sandbox(.server)
        try box.signUp("carol")
        var headers = WallServer.keyHeaders
        headers["X-Parse-Session-Token"] = try Self.sessionToken(box)
        #expect(try box.server!.send("POST", "/logout", headers: headers).status == 200)
        let post = try box.run(["post", "hello", "--at", "1,2"])
        #expect(post.status == Exit.authFailed && post.stderr.contains("log in again"), "\(post)")
        #expect(try box.run(["whoami"]).stderr.contains("not logged in"))
    }

    @Test("a watch that asks (no LiveQuery to be had) warns once when the server goes away, keeps going, and picks up new posts when it is back")
    func watchSurvivesOutage() throws {
        let box = try Sandbox(.server)
        let server = box.server!
        try box.signUp("dan")
        #expect(try box.run(["post", "first", "--at", "1,2"]).status == Exit.success)
        // A LiveQuery URL with nothing behind it: the watch asks the REST API, as on a Parse Server without LiveQuery.
        let watch = try LiveProcess(box, ["nearby", "--watch", "--at", "1,2", "--ndjson", "--interval", "0.2s"],
                                    environment: ["PARSE_LIVE_QUERY_URL": "ws://127.0.0.1:\(try Loopback.freePort())/"])
        #expect(watch.waitUntil { $0.jsonLines.count == 1 }, "\(watch.stderr)")
        #expect(server.stop() == 0, "a graceful stop: \(server.log)")
        // Past the one line that says the LiveQuery server cannot be reached, at the start.
        func outageWarnings() -> Int { watch.stderr.split(separator: "\n").filter { $0.contains("cannot reach") && !$0.contains("LiveQuery") }.count }
        #expect(watch.waitUntil { _ in outageWarnings() == 1 }, "\(watch.stderr)")
        try server.start()
        #expect(try box.run(["post", "second", "--at", "1,2"]).status == Exit.success)
        #expect(watch.waitUntil { $0.jsonLines.count == 2 }, "\(watch.stderr)")
        watch.signal(SIGTERM)
        _ = watch.finish()
        #expect(outageWarnings() == 1, "warned once: \(watch.stderr)")
        #expect(watch.stderr.contains("answers again"))
    }

    @Test("no password, session token, master key or REST key appears in any output or error")
    func noSecretsInOutput() throws {
        let box = try Sandbox(.server)
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
        var headers = WallServer.keyHeaders
        headers["X-Parse-Session-Token"] = try Self.sessionToken(box)
        _ = try box.server!.send("POST", "/logout", headers: headers)
        try run(["post", "after revoke", "--at", "1,2"])
        outputs.append(try box.run(["nearby", "--at", "1,2"], environment: ["PARSE_REST_API_KEY": "wrong-rest-key"]))
        let everything = outputs.map { $0.stdout + $0.stderr }.joined(separator: "\n")
        #expect(everything.contains("refused the master key") && everything.contains("invalid username/password"))
        for secret in [password, token, Sandbox.masterKey, "not the master key", Sandbox.restKey, "wrong-rest-key"] {
            #expect(!everything.contains(secret), "'\(secret)' was printed:\n\(everything)")
            #expect(!box.server!.log.contains(secret), "'\(secret)' is in the server's log")
        }
        #expect(box.server!.logEvents.filter { $0["event"] as? String == "request" }.count >= 14, "the access log has every request")
        let settings = try box.run(["settings", "set", "rest-key", "-"], input: "a-rest-key-from-stdin\n")
        #expect(settings.status == Exit.success && !settings.stderr.contains("a-rest-key-from-stdin"), "\(settings)")
        #expect(!(try box.run(["settings", "show", "--json"]).stdout.contains("a-rest-key-from-stdin")))
        let file = box.home.appendingPathComponent(".config/anywall/settings.json")
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
