import Foundation
import TestSupport
import Testing

/// The JavaScript SDK's requests over HTTP: a text/plain POST whose JSON body carries the method
/// and the keys, taken as the request it stands for, as Parse Server takes it.
@Suite("anywall-server: method and keys in a POST body")
struct MethodOverrideTests {
    /// A server without a REST API key, as one for JavaScript clients is set up (the SDK sends a
    /// JavaScript key, which anywall-server does not check).
    private static func server() throws -> WallServer {
        try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-override-\(UUID().uuidString).sqlite"),
                       environment: ["PARSE_SERVER_REST_API_KEY": ""])
    }

    /// Sends `fields` as the SDK does: POST, text/plain, no Parse headers.
    private static func send(_ server: WallServer, _ path: String, _ fields: [String: Any], headers: [String: String] = [:]) throws -> WallServer.Answer {
        try server.send("POST", path, headers: headers.merging(["Content-Type": "text/plain"]) { $1 },
                        body: try JSONSerialization.data(withJSONObject: fields))
    }

    private static let keys: [String: String] = ["_ApplicationId": Sandbox.applicationId, "_JavaScriptKey": "js-key",
                                              "_ClientVersion": "js5.3.0", "_InstallationId": "4a0c6e8e-0000-4000-8000-000000000001"]

    private static func with(_ fields: [String: Any]) -> [String: Any] { (keys as [String: Any]).merging(fields) { $1 } }

    @Test("sign-up, log-in, post, find, get, update and delete, each as the SDK sends it")
    func everyRoute() throws {
        let server = try Self.server()
        let signUp = try Self.send(server, "/users", Self.with(["_method": "POST", "username": "alice", "password": "pw", "_RevocableSession": "1"]))
        #expect(signUp.status == 201, "\(signUp)")
        let logIn = try Self.send(server, "/login", Self.with(["_method": "GET", "username": "alice", "password": "pw"]))
        let token = try #require(logIn.json["sessionToken"] as? String, "\(logIn)")
        let location: [String: Any] = ["__type": "GeoPoint", "latitude": 10, "longitude": 20]
        let created = try Self.send(server, "/classes/Posts", Self.with(["_method": "POST", "_SessionToken": token, "text": "hello", "location": location]))
        #expect(created.status == 201, "\(created)")
        let id = try #require(created.json["objectId"] as? String)
        let found = try Self.send(server, "/classes/Posts", Self.with([
            "_method": "GET", "where": ["location": ["$nearSphere": location, "$maxDistanceInKilometers": 1]], "limit": 5, "include": "user",
        ]))
        let results = found.json["results"] as? [[String: Any]]
        #expect(results?.map { $0["objectId"] as? String } == [id], "\(found)")
        #expect((results?.first?["user"] as? [String: Any])?["username"] as? String == "alice", "\(found)")
        let updated = try Self.send(server, "/classes/Posts/\(id)", Self.with(["_method": "PUT", "_SessionToken": token, "text": "changed"]))
        #expect(updated.status == 200 && updated.json["updatedAt"] is String, "\(updated)")
        let got = try Self.send(server, "/classes/Posts/\(id)", Self.with(["_method": "GET"]))
        #expect(got.json["text"] as? String == "changed", "\(got)")
        let deleted = try Self.send(server, "/classes/Posts/\(id)", Self.with(["_method": "DELETE", "_SessionToken": token]))
        #expect(deleted.status == 200, "\(deleted)")
        #expect(try Self.send(server, "/classes/Posts/\(id)", Self.with(["_method": "GET"])).status == 404)
        // A lower-case method is a method, as Express reads it.
        #expect(try Self.send(server, "/users/me", Self.with(["_method": "get", "_SessionToken": token])).json["username"] as? String == "alice")
        #expect(server.stop() == 0)
    }

    @Test("the master key, a batch and a context object, carried in the body")
    func masterKeyBatchAndContext() throws {
        let server = try Self.server()
        let info = try Self.send(server, "/serverInfo", Self.with(["_method": "GET", "_MasterKey": Sandbox.masterKey]))
        #expect(info.status == 200 && info.json["features"] is [String: Any], "\(info)")
        let batch = try Self.send(server, "/batch", Self.with(["_method": "POST", "_context": ["source": "test"],
                                                              "requests": [["method": "GET", "path": "/parse/config"]]]))
        let answers = (try? JSONSerialization.jsonObject(with: batch.body)) as? [[String: Any]]
        #expect(answers?.first?["success"] is [String: Any], "\(batch)")
        let asText = try Self.send(server, "/config", Self.with(["_method": "GET", "_context": #"{"source":"test"}"#]))
        #expect(asText.status == 200, "\(asText)")
        // With the header keys, the body's method still counts (and its fields are the query).
        let headers = WallServer.keyHeaders.merging(["X-Parse-Application-Id": Sandbox.applicationId]) { $1 }
        let overridden = try Self.send(server, "/classes/Posts", ["_method": "GET", "count": 1, "limit": 0], headers: headers)
        #expect(overridden.json["count"] as? Int == 0, "\(overridden)")
        #expect(server.stop() == 0)
    }

    /// (path, body with `APP` for the application id, status, answer when it is fixed)
    static let refusalCases: [(String, String, Int, String)] = [
        ("/config", #"{"_method":"GET","_ApplicationId":"another-app"}"#, 403, #"{"error":"unauthorized"}"#),
        ("/config", #"{"_method":"GET"}"#, 403, #"{"error":"unauthorized"}"#),
        ("/config", #"{"_method":"GET","_ApplicationId":1}"#, 403, #"{"error":"unauthorized"}"#),
        ("/config", #"{"_method":"GET","_ApplicationId":"APP","_MasterKey":"wrong"}"#, 200, ""),
        ("/serverInfo", #"{"_method":"GET","_ApplicationId":"APP"}"#, 403, #"{"error":"unauthorized: master key is required"}"#),
        ("/serverInfo", #"{"_method":"GET","_ApplicationId":"APP","_MasterKey":"wrong"}"#, 403,
         #"{"error":"unauthorized: master key is required"}"#),
        ("/config", #"{"_method":"GET","_ApplicationId":"APP","_context":"[1]"}"#, 400,
         #"{"code":107,"error":"Invalid object for context."}"#),
        ("/config", #"{"_method":"GET","_ApplicationId":"APP","_context":5}"#, 400,
         #"{"code":107,"error":"Invalid object for context."}"#),
        ("/users/me", #"{"_method":"GET","_ApplicationId":"APP","_SessionToken":"r:unknown"}"#, 400,
         #"{"code":209,"error":"Invalid session token"}"#),
        ("/classes/Posts", #"{"_method":"GET","_ApplicationId":"APP","radius":5}"#, 400, ""),
        ("/config", #"{"_method":5,"_ApplicationId":"APP"}"#, 404, ""),
        ("/config", #"{"_method":"G\r\nET","_ApplicationId":"APP"}"#, 404, ""),
        ("/nowhere", #"{"_method":"GET","_ApplicationId":"APP"}"#, 404, ""),
    ]

    @Test("refusals: Parse Server's codes and words", arguments: refusalCases)
    func refusals(path: String, body: String, status: Int, answer: String) throws {
        let server = try Self.server()
        let refused = try server.send("POST", path, headers: ["Content-Type": "text/plain"],
                                      body: Data(body.replacingOccurrences(of: "APP", with: Sandbox.applicationId).utf8))
        #expect(refused.status == status, "\(refused)")
        if !answer.isEmpty { #expect(refused.text == answer, "\(refused)") }
        if path == "/classes/Posts" { #expect(refused.json["code"] as? Int == 102, "an unknown parameter, as in a query string: \(refused)") }
        #expect(try Self.send(server, "/config", Self.with(["_method": "GET"])).status == 200, "the server still serves")
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "\(server.log.suffix(2000))")
        #expect(server.stop() == 0)
    }

    @Test("a body that is no JSON object, or too large, gets the answer any POST gets; the log has the POST once")
    func bodiesAndLog() throws {
        let server = try Self.server()
        let headers = ["X-Parse-Application-Id": Sandbox.applicationId, "Content-Type": "text/plain"]
        let notJSON = try server.send("POST", "/classes/Posts", headers: headers, body: Data("_method=GET".utf8))
        #expect(notJSON.status == 400 && notJSON.json["code"] as? Int == 107, "\(notJSON)")
        let large = try server.send("POST", "/classes/Posts", headers: headers,
                                    body: Data(#"{"_method":"GET","pad":"\#(String(repeating: "x", count: 70_000))"}"#.utf8))
        #expect(large.status == 413, "\(large)")
        _ = try Self.send(server, "/config", Self.with(["_method": "GET"]))
        // Stopped first: the log line of a request may follow its answer, and stop() reads the log to its end.
        #expect(server.stop() == 0)
        let configLines = server.logEvents.filter { $0["event"] as? String == "request" && $0["path"] as? String == "/parse/config" }
        #expect(configLines.count == 1 && configLines.first?["method"] as? String == "POST", "\(configLines)")
    }
}
