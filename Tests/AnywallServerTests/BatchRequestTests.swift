import Foundation
import TestSupport
import Testing

/// `POST /batch` over HTTP: sub-requests answered in order as Parse Server answers them, each
/// under the rules of its route, and Parse Server's refusals of a batch it will not run.
@Suite("anywall-server: batch requests")
struct BatchRequestTests {
    private static func server() throws -> WallServer {
        try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-batch-\(UUID().uuidString).sqlite"))
    }

    private static func create(_ text: String) -> [String: Any] {
        ["method": "POST", "path": "/parse/classes/Posts",
         "body": ["text": text, "location": ["__type": "GeoPoint", "latitude": 10, "longitude": 20]]]
    }

    /// The batch's answers, or nothing when the answer is not an array.
    private static func answers(_ answer: WallServer.Answer) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: answer.body)) as? [[String: Any]] ?? []
    }

    private static func texts(_ server: WallServer) throws -> [String] {
        let found = try server.send("GET", "/classes/Posts", query: ["order": "createdAt"])
        return (found.json["results"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    @Test("creates, a find, a refused delete: each answered in order; a find afterwards shows the posts")
    func createsThenFind() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice")
        var headers = WallServer.keyHeaders
        headers["X-Parse-Session-Token"] = alice.token
        // One request id for the batch: its creates are not refused as repeats of each other.
        headers["X-Parse-Request-Id"] = UUID().uuidString
        let batch = try server.send("POST", "/batch", headers: headers, json: ["requests": [
            Self.create("first"), Self.create("second"),
            ["method": "GET", "path": "/parse/classes/Posts", "body": ["order": "-createdAt", "limit": 1]],
            ["method": "DELETE", "path": "/parse/classes/Posts/nope"],
        ]])
        #expect(batch.status == 200, "\(batch)")
        let answers = Self.answers(batch)
        #expect(answers.count == 4, "\(batch)")
        for created in answers.prefix(2) {
            let success = created["success"] as? [String: Any]
            #expect(success?["objectId"] is String && success?["createdAt"] is String, "\(created)")
        }
        let found = (answers.dropFirst(2).first?["success"] as? [String: Any])?["results"] as? [[String: Any]]
        #expect(found?.map { $0["text"] as? String } == ["second"], "the where, order and limit of a GET's body: \(answers)")
        #expect(answers.last as? NSDictionary == ["error": ["code": 101, "error": "Object not found."]] as NSDictionary, "\(answers)")
        #expect(try Self.texts(server) == ["first", "second"])
        #expect(server.stop() == 0)
    }

    @Test("sub-requests keep their route's rules: no session, no post; the caller's session and the mount's dot segments")
    func rulesOfEachRoute() throws {
        let server = try Self.server()
        let anonymous = try server.send("POST", "/batch", json: ["requests": [Self.create("nobody")]])
        #expect(Self.answers(anonymous) as NSArray == [["error": ["code": 101, "error": "Permission denied, user needs to be authenticated."]]] as NSArray,
                "\(anonymous)")
        let alice = try server.signUp("alice")
        var headers = WallServer.keyHeaders
        headers["X-Parse-Session-Token"] = alice.token
        let me = try server.send("POST", "/batch", headers: headers, json: ["requests": [
            ["method": "GET", "path": "/parse/users/../users/me"], ["method": "GET", "path": "/parse//sessions/me"],
        ]])
        let answers = Self.answers(me)
        #expect((answers.first?["success"] as? [String: Any])?["username"] as? String == "alice", "\(me)")
        #expect((answers.last?["success"] as? [String: Any])?["sessionToken"] as? String == alice.token, "\(me)")
        #expect(try Self.texts(server).isEmpty)
        #expect(server.stop() == 0)
    }

    @Test("more than 50 sub-requests: refused whole with Parse's 107 and nothing done; the master key may send more")
    func overTheLimit() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice")
        var headers = WallServer.keyHeaders
        headers["X-Parse-Session-Token"] = alice.token
        let refused = try server.send("POST", "/batch", headers: headers, json: ["requests": (0..<51).map { Self.create("post \($0)") }])
        #expect(refused.status == 400, "\(refused)")
        #expect(refused.json as NSDictionary == ["code": 107, "error": "Batch request contains 51 sub-requests, which exceeds the limit of 50."] as NSDictionary,
                "\(refused)")
        #expect(try Self.texts(server).isEmpty)
        let fifty = try server.send("POST", "/batch", headers: headers, json: ["requests": (0..<50).map { Self.create("post \($0)") }])
        #expect(Self.answers(fifty).count == 50 && Self.answers(fifty).allSatisfy { $0["success"] != nil }, "\(fifty)")
        headers["X-Parse-Master-Key"] = Sandbox.masterKey
        let master = try server.send("POST", "/batch", headers: headers,
                                     json: ["requests": (0..<60).map { _ in ["method": "GET", "path": "/parse/config"] }])
        #expect(Self.answers(master).count == 60, "\(master)")
        #expect(server.stop() == 0)
    }

    @Test("malformed batches get Parse Server's 107 and its words, and the server keeps serving",
          arguments: [
            (#"{"requests":{}}"#, "requests must be an array"),
            (#"{}"#, "requests must be an array"),
            (#"[{"method":"GET","path":"/parse/config"}]"#, "requests must be an array"),
            (#"{"requests":[{"method":"GET"}]}"#, "batch request path must be a string"),
            (#"{"requests":[{"method":"GET","path":"/parse/config"},5]}"#, "batch request path must be a string"),
            (#"{"requests":[{"method":"GET","path":7}]}"#, "batch request path must be a string"),
            (#"{"requests":[{"method":"GET","path":"/classes/Posts"}]}"#, "cannot route batch path /classes/Posts"),
            (#"{"requests":[{"method":"GET","path":"http://elsewhere/parse/config"}]}"#, "cannot route batch path http://elsewhere/parse/config"),
            (#"{"requests":[{"method":"POST","path":"/parse/batch","body":{"requests":[]}}]}"#, "nested batch requests are not allowed"),
            (#"{"requests":[{"method":"post","path":"/parse/x/../batch/"}]}"#, "nested batch requests are not allowed"),
            (#"{"requests":[{"method":"GET","path":"/parse/nowhere"}]}"#, "cannot route GET /nowhere"),
            (#"{"requests":[{"method":"PATCH","path":"/parse/classes/Posts"}]}"#, "cannot route PATCH /classes/Posts"),
            (#"{"requests":[{"method":"get","path":"/parse/config"}]}"#, "cannot route get /config"),
            (#"{"requests":[{"path":"/parse/config"}]}"#, "cannot route undefined /config"),
            (#"{"requests":[{"method":"G\r\nET","path":"/parse/config"}]}"#, "cannot route G\r\nET /config"),
            (#"{"requests":[{"method":"GET","path":"/parse/classes/%zz?where=%\u0000"}]}"#, nil),
          ])
    func malformed(body: String, message: String?) throws {
        let server = try Self.server()
        let answer = try server.send("POST", "/batch", body: Data(body.utf8))
        if let message {
            #expect(answer.status == 400, "\(answer)")
            #expect(answer.json as NSDictionary == ["code": 107, "error": message] as NSDictionary, "\(answer)")
        } else {
            #expect(answer.status < 500, "\(answer)")
        }
        #expect(try server.send("GET", "/classes/Posts").status == 200)
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "\(server.log.suffix(2000))")
        #expect(server.stop() == 0)
    }
}
