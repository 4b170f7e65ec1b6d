import Foundation
import TestSupport
import Testing
import WallDomain

/// The requests of `fixtures/parse` (what anywall sends a Parse Server) sent to the real
/// anywall-server: each answer must have the recorded status, error code, headers and shape
/// (the same keys with values of the same JSON types, recursively).
@Suite("anywall-server answers the recorded Parse exchanges")
struct ServerFixtureTests {
    /// Exchanges replayed, in this order, each in the state the ones before leave.
    static let replayed = [
        "config-empty", "signup", "signup-taken", "login", "login-wrong-password", "users-me", "users-me-invalid-session",
        "create-post", "create-post-duplicate-request", "create-post-retry-duplicate", "create-post-invalid-session",
        "nearby", "karma", "nearby-empty", "invalid-query", "schema-create-no-master-key", "schema-exists", "config-set-defaults",
        "config", "config-set", "config-updated", "config-set-no-master-key", "logout", "logout-invalid-session", "unauthorized",
    ]

    /// Exchanges that are not answers anywall-server can give, and why.
    static let notReplayed = [
        // A fresh Parse Server has no Posts class; anywall-server's always exists.
        "schema-create": "a fresh Parse Server's state", "create-post-class-missing": "a fresh Parse Server's state",
        "nearby-class-missing": "a fresh Parse Server's state",
        // Network trouble and crashes, not answers.
        "server-error": "a fault", "nearby-malformed": "a fault", "nearby-slow": "a fault",
        "nearby-closed-mid-response": "a fault", "create-post-response-lost": "a fault",
        // The social layer on a stock server: carol's post, its Activity rows and the roles are
        // that server's state (ServerSocialTests and ServerRoleTests send anywall-server the same
        // requests on its own state), and where it keeps the counters anywall-server answers a
        // client's Increment with 119, a beforeSave's refusal, not a stock server's 101.
        "post-fetch": "a stock server's state", "thread-replies": "a stock server's state", "reply-create": "a stock server's state",
        "activity-my-vote-none": "a stock server's state", "activity-vote": "a stock server's state",
        "activity-reply-notice": "anywall-server writes reply notices itself (119)", "activity-my-report-none": "a stock server's state",
        "activity-report": "a stock server's state", "activity-feed": "a stock server's state",
        "post-score-increment-forbidden": "anywall-server keeps the counters (119)",
        "post-replycount-increment-forbidden": "anywall-server keeps the counters (119)",
        "post-reportcount-increment-forbidden": "anywall-server keeps the counters (119)",
        "users-by-username": "a stock server's state", "roles-moderators-none": "a stock server's state",
        "roles-create-moderators": "a stock server's state",
        // Issue 35's authData: Facebook's need anywall-server started with a Graph API stand-in
        // (AuthCommandTests run the CLI against it); the anonymous ones a stock server's ids.
        "signup-anonymous": "a stock server's ids", "users-convert": "a stock server's ids", "users-convert-taken": "a stock server's ids",
        "login-facebook-new": "needs the Graph API stand-in", "login-facebook-existing": "needs the Graph API stand-in",
        "login-facebook-invalid": "needs the Graph API stand-in", "users-set-name": "a stock server's ids",
        "link-facebook": "needs the Graph API stand-in", "link-facebook-taken": "needs the Graph API stand-in",
        "users-me-facebook": "needs the Graph API stand-in", "users-me-facebook-only": "needs the Graph API stand-in",
        "unlink-facebook": "needs the Graph API stand-in",
    ]

    static let fixtures = TestHTTPServer.repositoryRoot.appendingPathComponent("fixtures/parse")

    @Test("every fixture is either replayed or said not to be")
    func classified() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        #expect(Set(names) == Set(Self.replayed).union(Self.notReplayed.keys))
        #expect(Set(Self.replayed).isDisjoint(with: Self.notReplayed.keys))
    }

    @Test("each replayed request gets the recorded status, error code, headers and shape")
    func replay() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try WallServer(store: home.appendingPathComponent("wall.sqlite"))
        var values = Replay.Values()
        for name in Self.replayed {
            if name == "nearby" {
                // Another author, without a name, posting near alice: both author shapes come back.
                let bob = try server.signUp("bob")
                _ = try server.post("Street fair on Saturday", latitude: 37.781, longitude: -122.411, token: bob.token,
                                    acl: ["*": ["read": true], bob.objectId: ["read": true, "write": true]])
            }
            let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("\(name).json"))) as! [String: Any]
            let request = Replay.request(name, fixture["request"] as! [String: Any], values)
            let answer = try server.send(request.method, request.path, query: request.query, headers: request.headers, body: request.body)
            let expected = fixture["response"] as! [String: Any]
            let differences = Replay.differences(answer, expected, server: server)
            #expect(differences.isEmpty, "\(name): \(differences.joined(separator: "; ")) — got \(answer)")
            if name == "signup" {
                values.token = answer.json["sessionToken"] as? String ?? ""
                values.aliceId = answer.json["objectId"] as? String ?? ""
            }
        }
    }
}

/// Turns a fixture's request into a real one, and compares an answer with a fixture's response.
enum Replay {
    /// What stands in for the fixtures' fixed values and placeholders.
    struct Values {
        var token = ""
        var aliceId = ""
        let password = "pw-alice"
        let requestId = "3b241101-e2bb-4255-8caf-4136c566a962"
    }

    static let fixtureToken = "r:3f1b2c5d8e9a4b7c6d5e4f3a2b1c0d9e"
    static let fixtureAliceId = "gK9sQ2xLmA"

    struct Request {
        var method: String
        var path: String
        var query: [String: String]
        var headers: [String: String]
        var body: Data?
    }

    static func request(_ name: String, _ fixture: [String: Any], _ values: Values) -> Request {
        var headers = (concrete(fixture["headers"] ?? [:], key: nil, values) as? [String: String]) ?? [:]
        var query: [String: String] = [:]
        if let fixtureQuery = concrete(fixture["query"] as Any, key: nil, values) as? [String: Any] {
            for (key, value) in fixtureQuery {
                query[key] = value as? String
                    ?? String(decoding: try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
            }
        }
        var body = (fixture["body"] as? [String: Any]).map { concrete($0, key: nil, values) }
            .map { try! JSONSerialization.data(withJSONObject: $0 as Any) }
        var method = fixture["method"] as! String, path = String((fixture["path"] as! String).dropFirst("/parse".count))
        switch name {
        case "login-wrong-password":
            body = try! JSONSerialization.data(withJSONObject: ["username": "alice", "password": "not-" + values.password])
        case "invalid-query":
            query = ["radius": "3"]
        case "unauthorized":
            (method, path, body) = ("GET", "/classes/Posts", nil)
            headers = ["X-Parse-Application-Id": "not-the-app-id", "X-Parse-REST-API-Key": Sandbox.restKey]
        default:
            break
        }
        return Request(method: method, path: path, query: query, headers: headers, body: body)
    }

    /// The fixture's value with its placeholders and fixed values replaced; nil drops it.
    static func concrete(_ value: Any, key: String?, _ values: Values) -> Any? {
        switch value {
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            for (k, v) in object {
                guard let concrete = concrete(v, key: k, values) else { continue }
                result[k == fixtureAliceId ? values.aliceId : k] = concrete
            }
            return result
        case let array as [Any]:
            return array.compactMap { concrete($0, key: key, values) }
        case let text as String:
            switch text {
            case "<any>":
                // Inside `where`: a place far from every post; elsewhere the key is left out.
                switch key {
                case "latitude": return -45.0
                case "longitude": return 170.0
                case "$maxDistanceInKilometers": return 100.0
                case "limit": return "20"
                default: return nil
                }
            case "<string>": return key == "limit" ? "20" : values.password
            case "<uuid>": return values.requestId
            case fixtureToken: return values.token
            case fixtureAliceId: return values.aliceId
            default:
                if text.hasPrefix("<capture:") || text.hasPrefix("<same:") { return values.requestId }
                if text.hasPrefix("<prefix:") { return String(text.dropFirst("<prefix:".count).dropLast()) + "test" }
                if text.hasPrefix("<contains:") { return String(text.dropFirst("<contains:".count).dropLast()) }
                return text
            }
        default:
            return value
        }
    }

    /// How the answer differs from the fixture's response: status, Content-Type and Location,
    /// error code (and text, for the bare 403s), and the body's shape.
    static func differences(_ answer: WallServer.Answer, _ expected: [String: Any], server: WallServer) -> [String] {
        var found: [String] = []
        if answer.status != expected["status"] as? Int { found.append("status \(answer.status), expected \(expected["status"]!)") }
        let headers = expected["headers"] as? [String: String] ?? [:]
        if answer.headers["content-type"] != headers["Content-Type"] {
            found.append("Content-Type \(answer.headers["content-type"] ?? "none"), expected \(headers["Content-Type"] ?? "none")")
        }
        if let location = headers["Location"] {
            let expected = location.replacingOccurrences(of: "http://<host>", with: "http://127.0.0.1:\(server.port)")
            let prefix = String(expected[...expected.lastIndex(of: "/")!])
            if !(answer.headers["location"] ?? "").hasPrefix(prefix) { found.append("Location \(answer.headers["location"] ?? "none"), expected \(prefix)…") }
        }
        guard let fixtureBody = expected["body"] as? [String: Any] else { return found }
        let body = try! JSONDecoder().decode(JSONValue.self, from: JSONSerialization.data(withJSONObject: fixtureBody))
        guard let actual = try? JSONDecoder().decode(JSONValue.self, from: answer.body) else { return found + ["the body is not JSON"] }
        if case .object(let want) = body, case .object(let got) = actual {
            if let code = want["code"], got["code"] != code { found.append("code, expected \(code)") }
            if want["code"] == nil, let error = want["error"], got["error"] != error { found.append("error, expected \(error)") }
        }
        return found + shapeDifferences(actual, body, at: "body")
    }

    /// Where `actual` does not have the shape of `expected`: the same keys, values of the same
    /// JSON types; each element of an array like one of the expected elements.
    static func shapeDifferences(_ actual: JSONValue, _ expected: JSONValue, at path: String) -> [String] {
        switch (expected, actual) {
        case (.object(let want), .object(let got)):
            // Object ids are keys in ACLs: compare the number of entries there, not their names.
            if path.hasSuffix(".ACL") { return got.count == want.count ? [] : ["\(path) has \(got.count) entries, expected \(want.count)"] }
            guard Set(got.keys) == Set(want.keys) else { return ["\(path) has keys \(got.keys.sorted()), expected \(want.keys.sorted())"] }
            return want.keys.sorted().flatMap { shapeDifferences(got[$0]!, want[$0]!, at: "\(path).\($0)") }
        case (.array(let want), .array(let got)):
            if want.isEmpty != got.isEmpty { return ["\(path) has \(got.count) elements, expected \(want.count)"] }
            return got.enumerated().flatMap { index, element in
                want.contains { shapeDifferences(element, $0, at: "").isEmpty } ? [] : ["\(path)[\(index)] is like no expected element"]
            }
        case (.string, .string), (.number, .number), (.bool, .bool), (.null, .null):
            return []
        default:
            return ["\(path) is \(actual), expected a value like \(expected)"]
        }
    }
}
