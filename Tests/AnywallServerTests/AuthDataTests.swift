import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `authData` on anywall-server as Parse Server answers it: anonymous accounts and their
/// conversion, Facebook tokens checked against a Graph API (the `FakeFacebook` stand-in), link
/// and unlink, every refusal Parse Server gives, and no user's authData in another's answers.
/// On the store the run picks (`ANYWALL_TEST_STORE`).
@Suite("anywall-server: authData (anonymous and Facebook accounts)")
struct AuthDataTests {
    private static let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }

    private static func wallFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("anywall-authdata-\(UUID().uuidString).sqlite")
    }

    /// A server checking Facebook tokens against `graph`, signing its calls with the app secret from the environment.
    private static func server(graph: FakeFacebook?, arguments: [String] = []) throws -> WallServer {
        try WallServer(store: wallFile(), arguments: (graph?.serverArguments ?? []) + arguments,
                       environment: ["PARSE_SERVER_FACEBOOK_APP_SECRET": FakeFacebook.appSecret])
    }

    private static func session(_ token: String) -> [String: String] {
        WallServer.keyHeaders.merging(["X-Parse-Session-Token": token]) { $1 }
    }

    private static func facebook(_ id: String, _ token: String) -> [String: Any] {
        ["authData": ["facebook": ["id": id, "access_token": token, "expiration_date": "2030-01-01T00:00:00.000Z"]]]
    }

    /// "STATUS CODE message" of an answer, for refusals.
    private static func refusal(_ answer: WallServer.Answer) -> String {
        "\(answer.status) \(answer.json["code"] as? Int ?? 0) \(answer.json["error"] as? String ?? "")"
    }

    @Test("an anonymous sign-up gets a drawn username and a session; its id logs in again; a password converts it, keeping its objectId and posts")
    func anonymousAccount() throws {
        let server = try Self.server(graph: nil)
        let id = UUID().uuidString.lowercased()
        let signUp = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": id]]])
        #expect(signUp.status == 201, "\(signUp)")
        let objectId = try #require(signUp.json["objectId"] as? String, "\(signUp)")
        let token = try #require(signUp.json["sessionToken"] as? String)
        let username = try #require(signUp.json["username"] as? String, "Parse Server names the username it drew: \(signUp)")
        #expect(username.count == 25 && username.allSatisfy { $0.isLetter || $0.isNumber }, "\(username)")
        #expect(signUp.headers["location"]?.hasSuffix("/users/\(objectId)") == true, "\(signUp.headers)")

        let again = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": id]]])
        #expect(again.status == 200 && again.json["objectId"] as? String == objectId, "the same id logs in: \(again)")
        #expect(again.json["sessionToken"] as? String != token && again.json["username"] as? String == username, "\(again)")
        #expect((again.json["authData"] as? [String: Any])?["anonymous"] as? NSDictionary == ["id": id] as NSDictionary,
                "the owner sees its own authData: \(again)")

        let post = try server.post("Anonymous hello", latitude: 37.77, longitude: -122.41, token: token)
        let postId = try #require(post.json["objectId"] as? String, "\(post)")

        // Conversion as a client without the SDKs' anonymous: null: a username and a password.
        let convert = try server.send("PUT", "/users/\(objectId)", headers: Self.session(token), json: ["username": "anna", "password": "pw"])
        #expect(convert.status == 200 && convert.json["updatedAt"] is String, "\(convert)")
        let login = try server.send("GET", "/login", query: ["username": "anna", "password": "pw"])
        #expect(login.json["objectId"] as? String == objectId, "the same account: \(login)")
        #expect(login.json["authData"] == nil, "no anonymous identity is left: \(login)")
        let fetched = try server.send("GET", "/classes/Posts/\(postId)")
        #expect((fetched.json["user"] as? [String: Any])?["objectId"] as? String == objectId, "its post stays its: \(fetched)")
        let stranger = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": id]]])
        #expect(stranger.status == 201 && stranger.json["objectId"] as? String != objectId,
                "the old anonymous id no longer reaches the converted account: \(stranger)")

        // The SDKs' way: authData.anonymous null with the username and password.
        let sdk = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": "sdk-\(id)"]]])
        let sdkId = try #require(sdk.json["objectId"] as? String), sdkToken = try #require(sdk.json["sessionToken"] as? String)
        let sdkConvert = try server.send("PUT", "/users/\(sdkId)", headers: Self.session(sdkToken),
                                         json: ["username": "bea", "password": "pw", "authData": ["anonymous": NSNull()]])
        #expect(sdkConvert.status == 200, "\(sdkConvert)")
        #expect(try server.send("GET", "/users/me", headers: Self.session(sdkToken)).json["authData"] == nil)

        // A sign-up with authData may name itself: no username is drawn, and a taken one is 202.
        let named = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": "named-device"]], "username": "cleo", "name": "Cleo"])
        #expect(named.status == 201 && named.json["username"] == nil, "only a drawn username is named: \(named)")
        let namedMe = try server.send("GET", "/users/me", headers: Self.session(try #require(named.json["sessionToken"] as? String)))
        #expect(namedMe.json["username"] as? String == "cleo" && namedMe.json["name"] as? String == "Cleo", "\(namedMe)")
        let taken = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": "another-device"]], "username": "CLEO"])
        #expect(Self.refusal(taken) == "400 202 Account already exists for this username.", "\(taken)")
        #expect(server.stop() == 0)
    }

    @Test("a Facebook token signs up, then logs in the same user; the token is checked with /app and /me, signed with appsecret_proof")
    func facebookSignUpAndLogIn() throws {
        let graph = try FakeFacebook()
        let server = try Self.server(graph: graph)
        let signUp = try server.send("POST", "/users", json: Self.facebook("1001", "tok-alice"))
        #expect(signUp.status == 201, "\(signUp)")
        let objectId = try #require(signUp.json["objectId"] as? String)
        let logIn = try server.send("POST", "/users", json: Self.facebook("1001", "tok-alice"))
        #expect(logIn.status == 200 && logIn.json["objectId"] as? String == objectId && logIn.json["sessionToken"] is String, "\(logIn)")
        let own = (logIn.json["authData"] as? [String: Any])?["facebook"] as? [String: Any]
        #expect(own?["id"] as? String == "1001" && own?["expiration_date"] as? String == "2030-01-01T00:00:00.000Z", "\(logIn)")
        #expect(own?["access_token"] == nil, "the access token is never kept: \(logIn)")
        #expect(!logIn.text.contains("tok-alice"), "\(logIn)")

        let calls = try graph.requests()
        #expect(calls.map { $0["path"] as? String ?? "" } == ["/app", "/me", "/app", "/me"], "\(calls)")
        #expect(calls.allSatisfy { (($0["params"] as? [String: Any])?["appsecret_proof"] as? String)?.count == 64 }, "\(calls)")
        #expect(server.stop() == 0)
    }

    @Test("every Facebook refusal Parse Server gives: another app's token, an expired one, another user's id, no token (101); Graph API down (141)")
    func facebookRefusals() throws {
        let graph = try FakeFacebook()
        let server = try Self.server(graph: graph)
        let invalid = "404 101 Facebook auth is invalid for this user."
        #expect(Self.refusal(try server.send("POST", "/users", json: Self.facebook("1003", "tok-otherapp"))) == invalid, "a token of another app")
        #expect(Self.refusal(try server.send("POST", "/users", json: Self.facebook("1001", "tok-expired"))) == invalid, "an expired token")
        #expect(Self.refusal(try server.send("POST", "/users", json: Self.facebook("1001", "tok-bob"))) == invalid, "bob's token for alice's id")
        #expect(Self.refusal(try server.send("POST", "/users", json: ["authData": ["facebook": ["id": "1001"]]])) == invalid, "no token")
        #expect(Self.refusal(try server.send("POST", "/users", json: ["authData": ["facebook": ["id": "1001", "access_token": 5]]])) == invalid)
        #expect(Self.refusal(try server.send("POST", "/users", json: Self.facebook("1001", String(repeating: "t", count: 5000)))) == invalid)
        #expect(server.stop() == 0)

        // A server that does not sign its calls, before an app that requires the proof.
        let unsigned = try WallServer(store: Self.wallFile(), arguments: graph.serverArguments)
        #expect(Self.refusal(try unsigned.send("POST", "/users", json: Self.facebook("1001", "tok-alice"))) == invalid, "no appsecret_proof")
        #expect(unsigned.stop() == 0)

        let down = try Self.server(graph: nil, arguments: ["--facebook-app-ids", FakeFacebook.appId, "--facebook-graph-url", try FakeFacebook.closedURL()])
        let refused = try down.send("POST", "/users", json: Self.facebook("1001", "tok-alice"))
        #expect(refused.status == 400 && refused.json["code"] as? Int == 141, "Parse Server passes a failed call on as 141: \(refused)")
        #expect(!refused.text.contains("tok-alice"), "\(refused)")
        #expect(down.stop() == 0)

        let unconfigured = try Self.server(graph: nil)
        #expect(Self.refusal(try unconfigured.send("POST", "/users", json: Self.facebook("1001", "tok-alice")))
                == "404 101 Facebook auth is not configured.", "no --facebook-app-ids")
        #expect(unconfigured.stop() == 0)
    }

    @Test("a Graph API that never answers is given up after the timeout (141), and holds no other client meanwhile")
    func hangingGraph() throws {
        // A socket that listens and never accepts: the server's calls connect and wait for ever.
        let silent = Loopback.tcpSocket()
        defer { close(silent) }
        #expect(Loopback.bind(silent, port: 0) == 0 && listen(silent, 64) == 0)
        let port = try #require(Loopback.boundPort(silent))
        let server = try Self.server(graph: nil, arguments: ["--facebook-app-ids", FakeFacebook.appId, "--facebook-graph-url", "http://127.0.0.1:\(port)"])
        let started = Date()
        let waited = Answers()
        let waiting = Thread {
            if let answer = try? server.send("POST", "/users", json: Self.facebook("1001", "tok-alice")) { waited.add(answer) }
        }
        waiting.start()
        Thread.sleep(forTimeInterval: 0.5)
        let quick = Date()
        let other = try server.signUp("olga")
        let anonymous = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": "while-waiting"]]])
        #expect(Date().timeIntervalSince(quick) < 2, "other clients are answered while the Graph API hangs")
        #expect(!other.token.isEmpty && anonymous.status == 201, "\(anonymous)")
        while waited.all.isEmpty, Date().timeIntervalSince(started) < 30 { Thread.sleep(forTimeInterval: 0.1) }
        let answer = try #require(waited.all.first)
        #expect(answer.status == 400 && answer.json["code"] as? Int == 141, "\(answer)")
        #expect(Date().timeIntervalSince(started) < 15, "bounded by the timeout")
        #expect(server.stop() == 0)
    }

    @Test("link and unlink Facebook; an identity another account has is 208; the last way to log in is not unlinked (119)")
    func linkAndUnlink() throws {
        let graph = try FakeFacebook()
        let server = try Self.server(graph: graph)
        let bob = try server.signUp("bob")
        let link = try server.send("PUT", "/users/\(bob.objectId)", headers: Self.session(bob.token), json: Self.facebook("1002", "tok-bob"))
        #expect(link.status == 200, "\(link)")
        let me = try server.send("GET", "/users/me", headers: Self.session(bob.token))
        #expect(((me.json["authData"] as? [String: Any])?["facebook"] as? [String: Any])?["id"] as? String == "1002", "\(me)")
        let viaFacebook = try server.send("POST", "/users", json: Self.facebook("1002", "tok-bob"))
        #expect(viaFacebook.status == 200 && viaFacebook.json["objectId"] as? String == bob.objectId, "the linked token logs bob in: \(viaFacebook)")

        let used = "400 208 this auth is already used"
        let carol = try server.signUp("carol")
        #expect(Self.refusal(try server.send("PUT", "/users/\(carol.objectId)", headers: Self.session(carol.token),
                                             json: Self.facebook("1002", "tok-bob"))) == used)
        // Checked with Facebook first, as Parse Server does: an invalid token learns nothing of who has the id.
        #expect(Self.refusal(try server.send("PUT", "/users/\(carol.objectId)", headers: Self.session(carol.token),
                                             json: Self.facebook("1002", "tok-expired"))) == "404 101 Facebook auth is invalid for this user.")
        #expect(Self.refusal(try server.send("PUT", "/users/\(carol.objectId)", json: Self.facebook("1001", "tok-alice"))).hasPrefix("400 206"),
                "no session: not carol's to change")
        #expect(Self.refusal(try server.send("PUT", "/users/\(carol.objectId)", headers: Self.session(bob.token),
                                             json: Self.facebook("1001", "tok-alice"))).hasPrefix("400 206"), "bob cannot link to carol")

        // An account that has Facebook alone cannot drop it; with another identity it can.
        let alice = try server.send("POST", "/users", json: Self.facebook("1001", "tok-alice"))
        let aliceId = try #require(alice.json["objectId"] as? String), aliceToken = try #require(alice.json["sessionToken"] as? String)
        let last = try server.send("PUT", "/users/\(aliceId)", headers: Self.session(aliceToken), json: ["authData": ["facebook": NSNull()]])
        #expect(last.status == 400 && last.json["code"] as? Int == 119, "\(last)")
        #expect(try server.send("POST", "/users", json: Self.facebook("1001", "tok-alice")).json["objectId"] as? String == aliceId, "still linked")
        let swap = try server.send("PUT", "/users/\(aliceId)", headers: Self.session(aliceToken),
                                   json: ["authData": ["facebook": NSNull(), "anonymous": ["id": "alice-device"]]])
        #expect(swap.status == 200, "\(swap)")
        #expect(try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": "alice-device"]]]).json["objectId"] as? String == aliceId)

        // Bob has a password: Facebook goes. With the master key, any account's identities change.
        #expect(try server.send("PUT", "/users/\(bob.objectId)", headers: Self.session(bob.token), json: ["authData": ["facebook": NSNull()]]).status == 200)
        let relink = try server.send("PUT", "/users/\(bob.objectId)", headers: Self.master, json: Self.facebook("1002", "tok-bob"))
        #expect(relink.status == 200, "\(relink)")
        #expect(server.stop() == 0)
    }

    @Test("two sign-ups racing with one identity make one account")
    func racingSignUps() throws {
        let server = try Self.server(graph: nil)
        let answers = Answers()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let answer = try? server.send("POST", "/users", json: ["authData": ["anonymous": ["id": "one-device"]]]) { answers.add(answer) }
        }
        let all = answers.all
        #expect(all.count == 8 && all.allSatisfy { [200, 201].contains($0.status) || Self.refusal($0) == "400 208 this auth is already used" }, "\(all)")
        #expect(Set(all.compactMap { $0.json["objectId"] as? String }).count == 1, "\(all)")
        #expect(all.filter { $0.status == 201 }.count == 1, "\(all)")
        #expect(server.stop() == 0)
    }

    @Test("malformed authData gets Parse's errors, never a crash: wrong types, huge strings, nested junk, unknown and 100 providers")
    func malformed() throws {
        let server = try Self.server(graph: nil)
        let unsupported = "400 252 This authentication method is unsupported."
        let cases: [(Any, String)] = [
            ("facebook", unsupported), ([["id": "1"]], unsupported), (5, unsupported), (NSNull(), unsupported),
            (["twitter": ["id": "1", "auth_token": "t"]], unsupported),
            (["anonymous": "id"], unsupported), (["anonymous": ["id": 5]], unsupported), (["anonymous": ["id": ""]], unsupported),
            (["anonymous": ["id": ["nested": true]]], unsupported), (["anonymous": NSNull()], unsupported),
            (Dictionary(uniqueKeysWithValues: (0..<100).map { ("provider\($0)", ["id": "\($0)"]) }), unsupported),
        ]
        for (authData, expected) in cases {
            let answer = try server.send("POST", "/users", json: ["authData": authData])
            #expect(Self.refusal(answer) == expected, "\(authData)")
        }
        let huge = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": String(repeating: "x", count: 40_000)]]])
        #expect(huge.status == 400 && huge.json["code"] as? Int == 142, "\(huge)")
        let control = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": "a\u{1}b"]]])
        #expect(control.status == 400 && control.json["code"] as? Int == 142, "\(control)")
        var nested: Any = "deep"
        for _ in 0..<200 { nested = ["x": nested] }
        let junk = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": "junk-device", "extra": nested, "list": Array(0..<500)]]])
        #expect(junk.status == 201, "the fields beside id are dropped: \(junk)")
        let junkToken = try #require(junk.json["sessionToken"] as? String)
        #expect((try server.send("GET", "/users/me", headers: Self.session(junkToken)).json["authData"] as? [String: Any])?["anonymous"]
                as? NSDictionary == ["id": "junk-device"] as NSDictionary)
        let empty = try server.send("POST", "/users", json: ["authData": [:]])
        #expect(Self.refusal(empty) == "400 200 bad or missing username", "an empty authData is none: \(empty)")
        let badName = try server.send("POST", "/users", json: ["authData": ["anonymous": ["id": "named"]], "username": 7])
        #expect(badName.json["code"] as? Int == 200, "\(badName)")
        #expect(try server.send("GET", "/health").status == 200)
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "\(server.log.suffix(2000))")
        #expect(server.stop() == 0)
    }

    @Test("another user's authData never appears: _User finds and fetches, include=user, keys, batch, log-ins, a where on authData")
    func privacy() throws {
        let graph = try FakeFacebook()
        let server = try Self.server(graph: graph)
        let alice = try server.send("POST", "/users", json: Self.facebook("1001", "tok-alice"))
        let aliceId = try #require(alice.json["objectId"] as? String), aliceToken = try #require(alice.json["sessionToken"] as? String)
        let post = try server.post("Alice's post", latitude: 37.77, longitude: -122.41, token: aliceToken)
        #expect(post.status == 201, "\(post)")
        let bob = try server.signUp("bob")
        _ = try server.send("PUT", "/users/\(bob.objectId)", headers: Self.session(bob.token), json: ["authData": ["anonymous": ["id": "bob-device"]]])
        let asBob = Self.session(bob.token)
        let answers: [(String, WallServer.Answer)] = [
            ("GET /users", try server.send("GET", "/users", headers: asBob)),
            ("GET /classes/_User", try server.send("GET", "/classes/_User", headers: asBob)),
            ("GET /users/:id", try server.send("GET", "/users/\(aliceId)", headers: asBob)),
            ("GET /classes/_User/:id keys", try server.send("GET", "/classes/_User/\(aliceId)", query: ["keys": "authData"], headers: asBob)),
            ("include=user", try server.send("GET", "/classes/Posts", query: ["include": "user"], headers: asBob)),
            ("include=user keys", try server.send("GET", "/classes/Posts", query: ["include": "user", "keys": "user,user.authData"], headers: asBob)),
            ("batch", try server.send("POST", "/batch", headers: asBob, json: ["requests": [
                ["method": "GET", "path": "/parse/users/\(aliceId)"], ["method": "GET", "path": "/parse/classes/_User"],
                ["method": "GET", "path": "/parse/classes/Posts", "body": ["include": "user"]]]])),
            ("bob's log-in", try server.send("GET", "/login", query: ["username": "bob", "password": "pw"])),
            ("bob's me", try server.send("GET", "/users/me", headers: asBob)),
            ("no session", try server.send("GET", "/users/\(aliceId)")),
            ("the master key's find", try server.send("GET", "/users", headers: Self.master)),
        ]
        for (what, answer) in answers {
            #expect(!answer.text.contains("1001") && !answer.text.contains("facebook"), "\(what): \(answer)")
        }
        #expect(answers[8].1.text.contains("bob-device"), "bob sees his own: \(answers[8].1)")
        let probe = try server.send("GET", "/users", query: ["where": #"{"authData.facebook.id":"1001"}"#], headers: asBob)
        #expect(probe.status == 400 && !probe.text.contains(aliceId), "no find by another's identity: \(probe)")
        #expect(!answers.contains { $0.1.text.contains("tok-") })
        #expect(server.stop() == 0)
        for secret in ["tok-alice", "tok-bob", FakeFacebook.appSecret] {
            #expect(!server.log.contains(secret), "the server's log holds no token or secret")
        }
    }

    @Test("the app secret from --facebook-app-secret-file signs the calls; it is never on the command line or in the log")
    func secretFile() throws {
        let graph = try FakeFacebook()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-fb-secret-\(UUID().uuidString)")
        try "\(FakeFacebook.appSecret)\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try WallServer(store: Self.wallFile(), arguments: graph.serverArguments + ["--facebook-app-secret-file", file.path])
        let signUp = try server.send("POST", "/users", json: Self.facebook("1002", "tok-bob"))
        #expect(signUp.status == 201, "\(signUp)")
        #expect(server.stop() == 0)
        #expect(!server.log.contains(FakeFacebook.appSecret) && !server.log.contains("tok-bob"))
    }
}

/// Answers collected from several threads.
private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [WallServer.Answer] = []

    func add(_ answer: WallServer.Answer) { lock.withLock { answers.append(answer) } }
    var all: [WallServer.Answer] { lock.withLock { answers } }
}
