import AnywallServer
import Foundation
import TestSupport
import Testing
import WallDomain
#if canImport(Glibc)
import Glibc
#endif

/// anywall-server's rules, over real HTTP: keys, ACLs, sessions, what is never returned, bounded
/// requests; and how it starts and stops.
@Suite("anywall-server: security and service")
struct ServerSecurityTests {
    private func server() throws -> WallServer {
        try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-server-\(UUID().uuidString).sqlite"))
    }

    private func session(_ token: String) -> [String: String] {
        WallServer.keyHeaders.merging(["X-Parse-Session-Token": token]) { $1 }
    }

    @Test("no application id, a wrong one, or a wrong REST key: 403 unauthorized, whatever else is sent")
    func keys() throws {
        let server = try server()
        let requests: [[String: String]] = [
            [:], ["X-Parse-REST-API-Key": Sandbox.restKey], ["X-Parse-Master-Key": Sandbox.masterKey],
            ["X-Parse-Application-Id": "someone-else", "X-Parse-REST-API-Key": Sandbox.restKey],
            ["X-Parse-Application-Id": Sandbox.applicationId, "X-Parse-REST-API-Key": "wrong"],
            ["X-Parse-Application-Id": Sandbox.applicationId],
        ]
        for headers in requests {
            for (method, path) in [("GET", "/classes/Posts"), ("GET", "/config"), ("POST", "/users")] {
                let answer = try server.send(method, path, headers: headers, json: method == "POST" ? ["username": "x", "password": "y"] : nil)
                #expect(answer.status == 403 && answer.text == #"{"error":"unauthorized"}"#, "\(method) \(path) \(headers.keys.sorted()): \(answer)")
            }
        }
        // The master key stands in for the REST key, as on Parse Server.
        let master = try server.send("GET", "/config", headers: ["X-Parse-Application-Id": Sandbox.applicationId, "X-Parse-Master-Key": Sandbox.masterKey])
        #expect(master.status == 200, "\(master)")
        let config = try server.send("PUT", "/config", json: ["params": ["postMaxCharacterCount": 10]])
        #expect(config.status == 403 && config.json["error"] as? String == "unauthorized: master key is required", "\(config)")
        #expect(try server.send("GET", "/health", headers: [:]).status == 200, "health needs no keys")
    }

    @Test("a post with Anywall's ACL is edited or deleted by its author only; another user, no session or a forged user cannot")
    func ownership() throws {
        let server = try server()
        let alice = try server.signUp("alice"), bob = try server.signUp("bob")
        let point: [String: Any] = ["__type": "GeoPoint", "latitude": 1, "longitude": 2]
        let created = try server.send("POST", "/classes/Posts", headers: session(alice.token), json: [
            "text": "mine", "location": point, "ACL": ["*": ["read": true], alice.objectId: ["read": true, "write": true]]])
        let id = created.json["objectId"] as! String
        for headers in [session(bob.token), WallServer.keyHeaders] {
            let edit = try server.send("PUT", "/classes/Posts/\(id)", headers: headers, json: ["text": "hacked"])
            #expect(edit.status == 404 && edit.json["code"] as? Int == 101, "\(edit)")
            let delete = try server.send("DELETE", "/classes/Posts/\(id)", headers: headers)
            #expect(delete.status == 404 && delete.json["code"] as? Int == 101, "\(delete)")
        }
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["text"] as? String == "mine")

        let asAlice = try server.send("POST", "/classes/Posts", headers: session(bob.token), json: [
            "text": "forged", "location": point, "user": ["__type": "Pointer", "className": "_User", "objectId": alice.objectId]])
        #expect(asAlice.status == 400 && asAlice.json["code"] as? Int == 142, "\(asAlice)")
        let roles = try server.send("POST", "/classes/Posts", headers: session(bob.token), json: [
            "text": "team", "location": point, "ACL": ["role:ad/mins": ["read": true, "write": true]]])
        #expect(roles.status == 400 && roles.json["code"] as? Int == 123
                && roles.json["error"] as? String == "Invalid ACL: A role's name can only contain alphanumeric characters, _ and - here (no spaces).", "\(roles)")
        // The Posts class's permissions (requiresAuthentication to create, update, delete), as Parse Server answers them;
        // a post saved without an ACL is everyone's to write, but only a signed-in everyone.
        let anonymous = try server.send("POST", "/classes/Posts", json: ["text": "anon", "location": point])
        #expect(anonymous.status == 404 && anonymous.json["code"] as? Int == 101
                && anonymous.json["error"] as? String == "Permission denied, user needs to be authenticated.", "\(anonymous)")
        let open = try server.send("POST", "/classes/Posts", headers: session(bob.token), json: ["text": "open", "location": point])
        let openId = try #require(open.json["objectId"] as? String, "\(open)")
        let anonymousEdit = try server.send("PUT", "/classes/Posts/\(openId)", json: ["text": "defaced"])
        #expect(anonymousEdit.status == 404 && anonymousEdit.json["code"] as? Int == 101, "\(anonymousEdit)")
        let anonymousDelete = try server.send("DELETE", "/classes/Posts/\(openId)")
        #expect(anonymousDelete.status == 404 && anonymousDelete.json["code"] as? Int == 101, "\(anonymousDelete)")
        #expect(try server.send("GET", "/classes/Posts/\(openId)").json["text"] as? String == "open")
        #expect(try server.send("PUT", "/classes/Posts/\(openId)", headers: session(alice.token), json: ["text": "open too"]).status == 200,
                "a signed-in user writes a post without an ACL")
        #expect(try server.send("DELETE", "/classes/Posts/\(openId)", headers: session(alice.token)).status == 200)

        let edit = try server.send("PUT", "/classes/Posts/\(id)", headers: session(alice.token), json: ["text": "edited"])
        #expect(edit.status == 200 && edit.json["updatedAt"] is String, "\(edit)")
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["text"] as? String == "edited")
        #expect(try server.send("DELETE", "/classes/Posts/\(id)", headers: session(alice.token)).status == 200)
        #expect(try server.send("GET", "/classes/Posts/\(id)").status == 404)
        let texts = (try server.send("GET", "/classes/Posts").json["results"] as! [[String: Any]]).map { $0["text"] as? String }
        #expect(texts.isEmpty, "nothing forged was written: \(texts)")
    }

    @Test("the master key edits and deletes any post, whatever its ACL, as Parse's master key passes over ACLs")
    func masterWrites() throws {
        let server = try server()
        let alice = try server.signUp("alice"), bob = try server.signUp("bob")
        let created = try server.send("POST", "/classes/Posts", headers: session(alice.token), json: [
            "text": "private", "location": ["__type": "GeoPoint", "latitude": 1, "longitude": 2],
            "ACL": [alice.objectId: ["read": true, "write": true]]])
        let id = created.json["objectId"] as! String
        let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }
        let edit = try server.send("PUT", "/classes/Posts/\(id)", headers: master, json: ["text": "moderated"])
        #expect(edit.status == 200 && edit.json["updatedAt"] is String, "\(edit)")
        #expect(try server.send("GET", "/classes/Posts/\(id)", headers: master).json["text"] as? String == "moderated")
        // With another user's session beside it, the master key still decides.
        let withSession = master.merging(["X-Parse-Session-Token": bob.token]) { $1 }
        #expect(try server.send("DELETE", "/classes/Posts/\(id)", headers: withSession).status == 200)
        #expect(try server.send("GET", "/classes/Posts/\(id)", headers: master).status == 404)
    }

    @Test("a post saved without an ACL is everyone's to read and any signed-in user's to write, as Parse keeps it under Posts' permissions")
    func defaultACL() throws {
        let server = try server()
        let alice = try server.signUp("alice"), bob = try server.signUp("bob")
        let id = try server.post("open", latitude: 1, longitude: 2, token: alice.token).json["objectId"] as! String
        let fetched = try server.send("GET", "/classes/Posts/\(id)").json
        #expect(fetched["text"] as? String == "open" && fetched["ACL"] == nil, "no ACL comes back, as from Parse Server: \(fetched)")
        #expect(try server.send("PUT", "/classes/Posts/\(id)", headers: session(bob.token), json: ["text": "bob's now"]).status == 200)
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["text"] as? String == "bob's now")
        // Any signed-in user: the class's permissions still ask for a session (requiresAuthentication).
        #expect(try server.send("PUT", "/classes/Posts/\(id)", json: ["text": "anyone's"]).status == 404, "no session, no write")
        #expect(try server.send("DELETE", "/classes/Posts/\(id)", headers: session(bob.token)).status == 200)
        #expect(try server.send("GET", "/classes/Posts/\(id)").status == 404)
    }

    @Test("a logged-out token gets 209 everywhere; other sessions of the user stay open")
    func revokedToken() throws {
        let server = try server()
        let first = try server.signUp("carol", password: "pw-carol")
        let second = try server.send("POST", "/login", json: ["username": "carol", "password": "pw-carol"]).json["sessionToken"] as! String
        #expect(try server.send("POST", "/logout", headers: session(first.token)).status == 200)
        let me = try server.send("GET", "/users/me", headers: session(first.token))
        #expect(me.status == 400 && me.json["code"] as? Int == 209 && me.json["error"] as? String == "Invalid session token", "\(me)")
        let post = try server.post("after logout", latitude: 1, longitude: 2, token: first.token)
        #expect(post.status == 400 && post.json["code"] as? Int == 209, "\(post)")
        #expect(try server.send("POST", "/logout", headers: session(first.token)).json["code"] as? Int == 209)
        #expect(try server.send("GET", "/users/me", headers: session(second)).status == 200)
    }

    @Test("/users/me, /login and include=user never carry a password, a hash or another user's session token")
    func noPasswords() throws {
        let server = try server()
        let password = "a long secret password"
        let alice = try server.signUp("alice", password: password)
        let bob = try server.signUp("bob", password: password)
        _ = try server.post("hello", latitude: 1, longitude: 2, token: alice.token)
        let answers = [
            try server.send("GET", "/users/me", headers: session(alice.token)),
            try server.send("POST", "/login", json: ["username": "alice", "password": password]),
            try server.send("GET", "/login", query: ["username": "alice", "password": password]),
            try server.send("GET", "/classes/Posts", query: ["include": "user"], headers: session(bob.token)),
            try server.send("GET", "/classes/Posts", query: ["include": "*"]),
        ]
        for answer in answers {
            #expect(answer.status == 200, "\(answer)")
            for forbidden in [password, "password", "scrypt", "hash", "authData"] {
                #expect(!answer.text.lowercased().contains(forbidden.lowercased()), "'\(forbidden)' in \(answer)")
            }
        }
        for post in answers[3...].flatMap({ $0.json["results"] as! [[String: Any]] }) {
            let author = post["user"] as! [String: Any]
            #expect(author["username"] as? String == "alice" && author["sessionToken"] == nil, "\(author)")
        }
        #expect(!server.log.contains(password), "the password is not logged (GET /login puts it in the query)")
    }

    @Test("a body declared too large is refused before it is sent; one that grows too large (chunked) as soon as it does")
    func oversizedBody() throws {
        let server = try server()
        let alice = try server.signUp("alice")
        let declared = try RawHTTPConnection(port: server.port)
        declared.write("POST /parse/classes/Posts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(Sandbox.applicationId)\r\n"
                       + "X-Parse-REST-API-Key: \(Sandbox.restKey)\r\nX-Parse-Session-Token: \(alice.token)\r\n"
                       + "Content-Type: application/json\r\nContent-Length: 104857600\r\n\r\n{\"text\":\"")
        // Only the headers and a few bytes of the 100 MB were sent: the answer cannot wait for the rest.
        let answer = declared.readAnswer()
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")

        let chunked = try RawHTTPConnection(port: server.port)
        chunked.write("POST /parse/classes/Posts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(Sandbox.applicationId)\r\n"
                      + "X-Parse-REST-API-Key: \(Sandbox.restKey)\r\nX-Parse-Session-Token: \(alice.token)\r\n"
                      + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = String(repeating: "a", count: 16_384)
        for _ in 0..<8 where chunked.write(String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n") {}
        let grown = chunked.readAnswer()
        #expect(grown.hasPrefix("HTTP/1.1 413"), "\(grown)")
        #expect(try server.send("GET", "/classes/Posts", query: ["count": "1", "limit": "0"]).json["count"] as? Int == 0)
    }

    @Test("limit and skip are bounded; unknown parameters and bad JSON get Parse's codes")
    func boundedQueries() throws {
        let server = try server()
        let alice = try server.signUp("alice")
        for i in 0..<3 { _ = try server.post("post \(i)", latitude: 1, longitude: 2, token: alice.token) }
        let big = try server.send("GET", "/classes/Posts", query: ["limit": "100000000", "count": "1"])
        #expect(big.status == 200 && (big.json["results"] as? [Any])?.count == 3 && big.json["count"] as? Int == 3, "\(big)")
        let skip = try server.send("GET", "/classes/Posts", query: ["skip": "1000000"])
        #expect(skip.status == 400 && skip.json["code"] as? Int == 102, "\(skip)")
        let unknown = try server.send("GET", "/classes/Posts", query: ["radius": "3"])
        #expect(unknown.json["code"] as? Int == 102 && unknown.json["error"] as? String == "Invalid parameter for query: radius")
        let where_ = try server.send("GET", "/classes/Posts", query: ["where": #"{"text":{"$near":"x"}}"#])
        #expect(where_.status == 400 && where_.json["code"] as? Int == 107 && where_.json["error"] as? String == "bad constraint: $near", "\(where_)")
        var headers = session(alice.token)
        headers["Content-Type"] = "application/json"
        let badJSON = try server.send("POST", "/classes/Posts", headers: headers, body: Data("{not json".utf8))
        #expect(badJSON.status == 400 && badJSON.json["code"] as? Int == 107, "\(badJSON)")
        let otherClass = try server.send("GET", "/classes/Secrets")
        #expect(otherClass.status == 400 && otherClass.json["code"] as? Int == 119, "\(otherClass)")
    }

    @Test("SIGTERM lets a request in flight finish, then the server exits 0; each request is one JSON log line; requests run on the event loops")
    func gracefulStop() throws {
        let server = try server()
        let alice = try server.signUp("alice")
        let body = #"{"text":"sent while stopping","location":{"__type":"GeoPoint","latitude":1,"longitude":2}}"#
        let connection = try RawHTTPConnection(port: server.port)
        connection.write("POST /parse/classes/Posts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(Sandbox.applicationId)\r\n"
                         + "X-Parse-REST-API-Key: \(Sandbox.restKey)\r\nX-Parse-Session-Token: \(alice.token)\r\n"
                         + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body.prefix(10))
        Thread.sleep(forTimeInterval: 0.3)
        let stopping = Thread { _ = server.stop() }
        stopping.start()
        Thread.sleep(forTimeInterval: 0.5)
        connection.write(String(body.dropFirst(10)))
        let answer = connection.readAnswer()
        #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
        while stopping.isExecuting || !stopping.isFinished { Thread.sleep(forTimeInterval: 0.05) }
        let events = server.logEvents
        #expect(events.first?["event"] as? String == "listening" && events.first?["address"] as? String == "127.0.0.1")
        #expect(events.first?["requestsRunOn"] as? String == "event loops", "\(server.log)")
        #expect(events.last?["event"] as? String == "stopped", "\(server.log)")
        let posted = events.first { $0["event"] as? String == "request" && $0["method"] as? String == "POST" && $0["path"] as? String == "/parse/classes/Posts" }
        #expect(posted?["status"] as? Int == 201 && posted?["remote"] as? String == "127.0.0.1" && posted?["ms"] is Double, "\(server.log)")
        try server.start()
        #expect(try server.send("GET", "/classes/Posts").json["results"].map { ($0 as! [Any]).count } == 1, "the post was kept")
    }

    @Test("a missing key, an unusable wall or a port in use: one line and a distinct exit status")
    func startFailures() throws {
        let running = try server()
        for (environment, arguments, status, message) in [
            (["PARSE_SERVER_MASTER_KEY": "mk"], ["--store", "/tmp/anywall-\(UUID().uuidString).sqlite"], Int32(78), "PARSE_SERVER_APPLICATION_ID"),
            (["PARSE_SERVER_APPLICATION_ID": "app", "PARSE_SERVER_MASTER_KEY_FILE": "/nonexistent/key"], ["--store", "/tmp/x.sqlite"], 78, "PARSE_SERVER_MASTER_KEY_FILE"),
            (["PARSE_SERVER_APPLICATION_ID": "app", "PARSE_SERVER_MASTER_KEY": "mk"], ["--store", "/proc/anywall/wall.sqlite"], 69, "cannot open the wall"),
            (["PARSE_SERVER_APPLICATION_ID": "app", "PARSE_SERVER_MASTER_KEY": "mk"],
             ["--store", "/tmp/anywall-\(UUID().uuidString).sqlite", "--port", "\(running.port)"], 71, "cannot serve on 127.0.0.1"),
            ([:], ["--store", "/tmp/x.sqlite", "--port", "70000"], 64, "--port"),
        ] {
            let (exit, text) = try WallServer.runToExit(arguments, environment: environment)
            #expect(exit == status && text.contains(message), "\(arguments): exit \(exit): \(text)")
            if status != 64 { #expect(text.split(separator: "\n").count == 1, "one line, not a trace: \(text)") }
        }
    }

    @Test("a browser's preflight is answered before the keys are checked, and every answer to a page, a refusal too, names the origin allowed")
    func crossOrigin() throws {
        let server = try server()
        let page = "https://app.example"
        let preflight = try server.send("OPTIONS", "/classes/Posts", headers: [
            "Origin": page, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "x-parse-application-id, x-parse-session-token, content-type",
        ])
        #expect(preflight.status == 204 && preflight.headers["access-control-allow-origin"] == "*", "\(preflight) \(preflight.headers)")
        let methods = preflight.headers["access-control-allow-methods"] ?? ""
        #expect(["GET", "PUT", "POST", "DELETE"].allSatisfy { methods.contains($0) }, "\(preflight.headers)")
        let headers = preflight.headers["access-control-allow-headers"] ?? ""
        #expect(["x-parse-application-id", "x-parse-rest-api-key", "x-parse-session-token", "x-parse-request-id", "content-type"]
            .allSatisfy { headers.lowercased().contains($0) }, "\(preflight.headers)")
        let find = try server.send("GET", "/classes/Posts", headers: WallServer.keyHeaders.merging(["Origin": page]) { $1 })
        #expect(find.status == 200 && find.headers["access-control-allow-origin"] == "*", "\(find) \(find.headers)")
        let refused = try server.send("GET", "/classes/Posts", headers: ["Origin": page])
        #expect(refused.status == 403 && refused.headers["access-control-allow-origin"] == "*", "\(refused) \(refused.headers)")
        #expect(try server.send("GET", "/classes/Posts").headers["access-control-allow-origin"] == nil, "no page, no CORS headers")
        #expect(server.stop() == 0)

        for accepted in ["http://localhost:8080", "https://[::1]:8443", "https://xn--bcher-kva.example"] {
            #expect(CrossOrigin(accepted) == .only(accepted), "\(accepted)")
        }
        let oneOrigin = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-cors-\(UUID().uuidString).sqlite"),
                                       arguments: ["--allow-origin", page])
        let named = try oneOrigin.send("OPTIONS", "/classes/Posts", headers: ["Origin": "https://elsewhere.example", "Access-Control-Request-Method": "GET"])
        #expect(named.headers["access-control-allow-origin"] == page, "the one origin, whoever asks: \(named.headers)")
        #expect(oneOrigin.stop() == 0)

        // Only what a browser sends could ever match: its Origin header is compared byte for byte.
        for origin in ["https://app.example/wall", "app.example", "ftp://app.example", "https://a.example,https://b.example", "",
                       "https://App.example", "HTTPS://app.example", "https://app.example:443", "https://app.example:", "https://app.example:99999",
                       "https://*.example", "https://app.example%0d%0a", "https://bücher.example", "https://app.example/"] {
            let (status, stderr) = try WallServer.runToExit(["--store", "/tmp/anywall-\(UUID().uuidString).sqlite", "--allow-origin", origin],
                                                            environment: [:])
            #expect(status == 64 && stderr.contains("--allow-origin"), "\(origin): \(status) \(stderr)")
        }
    }
}
