import Foundation
import TestSupport
import Testing
import WallDomain

/// `GET /sessions/me` and the `X-Parse-Revocable-Session` header over HTTP.
@Suite("anywall-server: the caller's session")
struct SessionRequestTests {
    @Test("sessions/me is the caller's session; none, an unknown one or an ended one is 209")
    func me() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-session-\(UUID().uuidString).sqlite"))
        var headers = WallServer.keyHeaders
        headers["X-Parse-Revocable-Session"] = "1"
        let signUp = try server.send("POST", "/users", headers: headers, json: ["username": "alice", "password": "pw"])
        let token = try #require(signUp.json["sessionToken"] as? String, "\(signUp)")
        let userId = try #require(signUp.json["objectId"] as? String)
        #expect(token.hasPrefix("r:"), "a revocable session's token, as Parse Server gives")
        headers["X-Parse-Session-Token"] = token
        let mine = try server.send("GET", "/sessions/me", headers: headers)
        #expect(mine.status == 200, "\(mine)")
        #expect(mine.json["sessionToken"] as? String == token, "\(mine)")
        #expect(mine.json["user"] as? NSDictionary == ["__type": "Pointer", "className": "_User", "objectId": userId] as NSDictionary, "\(mine)")
        #expect(Set(mine.json.keys) == ["objectId", "sessionToken", "user", "createdWith", "restricted", "expiresAt", "createdAt", "updatedAt"],
                "Parse's _Session fields: \(mine)")
        let started = (mine.json["createdAt"] as? String).flatMap(ParseDate.date(from:))
        let expires = ((mine.json["expiresAt"] as? [String: Any])?["iso"] as? String).flatMap(ParseDate.date(from:))
        #expect(started.map { abs($0.timeIntervalSinceNow) < 60 } == true && expires.map { $0 > Date().addingTimeInterval(300 * 86_400) } == true,
                "it began now and lasts the default year: \(mine)")

        let none = try server.send("GET", "/sessions/me")
        #expect(none.status == 400 && none.text == #"{"code":209,"error":"Session token required."}"#, "\(none)")
        var unknown = WallServer.keyHeaders
        unknown["X-Parse-Session-Token"] = "r:unknown"
        let refused = try server.send("GET", "/sessions/me", headers: unknown)
        #expect(refused.status == 400 && refused.text == #"{"code":209,"error":"Invalid session token"}"#, "\(refused)")

        // Revocable: logging out ends it, with or without the header.
        let logIn = try server.send("GET", "/login", query: ["username": "alice", "password": "pw"], headers: headers)
        #expect(logIn.status == 200 && logIn.json["sessionToken"] is String, "\(logIn)")
        #expect(try server.send("POST", "/logout", headers: headers).status == 200)
        let ended = try server.send("GET", "/sessions/me", headers: headers)
        #expect(ended.json["code"] as? Int == 209, "\(ended)")
        // Logging in again with the ended token still sent: Parse Server drops it on POST /login.
        let again = try server.send("POST", "/login", headers: headers, json: ["username": "alice", "password": "pw"])
        #expect(again.status == 200 && again.json["sessionToken"] is String, "\(again)")
        #expect(server.stop() == 0)
    }

    @Test("a log-in's fields as Parse Server checks them: missing first, then of another type than a string (101)")
    func logInFields() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-session-\(UUID().uuidString).sqlite"))
        _ = try server.send("POST", "/users", json: ["username": "ada", "password": "pw"])
        func answer(_ body: [String: Any]) throws -> String {
            let answer = try server.send("POST", "/login", json: body)
            return "\(answer.status) \(answer.json["code"] as? Int ?? 0)"
        }
        #expect(try answer(["password": "pw"]) == "400 200")
        #expect(try answer(["username": "", "password": "pw"]) == "400 200")
        #expect(try answer(["username": "ada"]) == "400 201")
        #expect(try answer(["username": ["ada"], "password": "pw"]) == "404 101")
        #expect(try answer(["username": "ada", "password": 123]) == "404 101")
        #expect(try answer(["email": "ada@example.com", "password": "pw"]) == "404 101", "no account by email here")
        #expect(try answer(["username": "ada", "password": "pw"]) == "200 0")
        #expect(server.stop() == 0)
    }
}
