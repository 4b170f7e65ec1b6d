import Foundation
import TestSupport
import Testing
import WallDomain

/// The examples of Parse's REST guide (parse-community/docs, `_includes/rest/*.md`) replayed in
/// order against the real anywall-server, each adapted to the one class it keeps (Posts) as
/// `fixtures/rest-guide/examples.json` says: every answer has the documented status and the shape
/// of the documented answer (the same keys with values of the same JSON types, recursively), and
/// every error answer the documented code and message. It shows a client written from the guide
/// gets the answers the guide promises.
@Suite("anywall-server answers the Parse REST guide's examples")
struct RESTGuideTests {
    static let fixture = TestHTTPServer.repositoryRoot.appendingPathComponent("fixtures/rest-guide/examples.json")

    /// The fixture's examples, in replay order.
    static func examples() throws -> [[String: JSONValue]] {
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: fixture))
        guard case .object(let top) = document, case .array(let examples)? = top["examples"] else {
            throw HelperFailure(description: "\(fixture.path) has no examples array")
        }
        return try examples.map { example in
            guard case .object(let fields) = example else { throw HelperFailure(description: "an example is not an object: \(example)") }
            return fields
        }
    }

    @Test("the fixture parses; every example names its section and has a request and a response; no name is used twice")
    func wellFormed() throws {
        let examples = try Self.examples()
        #expect(!examples.isEmpty)
        for example in examples {
            let section = example["section"].flatMap(Self.text) ?? ""
            #expect(section.contains(".md \""), "an example without a guide section: \(example)")
            guard case .object(let request)? = example["request"], case .object(let response)? = example["response"] else {
                Issue.record("\(section): no request or response")
                continue
            }
            #expect(request["method"].flatMap(Self.text) != nil && request["path"].flatMap(Self.text)?.hasPrefix("/parse/") == true, "\(section)")
            #expect(["alice", "bob", "master", "none"].contains(request["as"].flatMap(Self.text) ?? ""), "\(section): as")
            #expect(response["status"]?.number != nil && response["body"] != nil, "\(section)")
        }
        let names = examples.compactMap { $0["name"].flatMap(Self.text) }
        #expect(Set(names).count == names.count, "names used twice: \(names)")
    }

    @Test("each example's answer has the guide's status, shape and error")
    func replay() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-guide-\(UUID().uuidString).sqlite"))
        // Named, so that every user has the same fields as the guide's users (whose phone becomes name).
        var tokens: [String: String] = [:]
        var placeholders: [String: String] = [:]
        for (username, name) in [("alice", "Alice"), ("bob", "Bob")] {
            let answer = try server.send("POST", "/users", json: ["username": username, "password": "pw", "name": name])
            guard answer.status == 201, let token = answer.json["sessionToken"] as? String, let id = answer.json["objectId"] as? String else {
                throw HelperFailure(description: "signup of \(username) failed: \(answer)")
            }
            tokens[username] = token
            placeholders["<user:\(username)>"] = id
        }
        func fill(_ text: String) -> String {
            placeholders.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        }

        for (index, example) in try Self.examples().enumerated() {
            let label = "#\(index + 1) \(example["section"].flatMap(Self.text) ?? "")"
            guard case .object(let request)? = example["request"], case .object(let response)? = example["response"],
                  let method = request["method"].flatMap(Self.text), let path = request["path"].flatMap(Self.text) else {
                Issue.record("\(label): malformed")
                continue
            }
            var headers = WallServer.keyHeaders
            switch request["as"].flatMap(Self.text) {
            case "master": headers["X-Parse-Master-Key"] = Sandbox.masterKey
            // "none" has no token: the keys alone.
            case let user?: if let token = tokens[user] { headers["X-Parse-Session-Token"] = token }
            case nil: break
            }
            if case .object(let extra)? = request["headers"] {
                for (name, value) in extra { headers[name] = fill(Self.text(value) ?? "") }
            }
            var body: Data?
            if let json = request["body"] {
                body = Data(fill(String(decoding: try JSONEncoder().encode(json), as: UTF8.self)).utf8)
                headers["Content-Type"] = "application/json"
            }
            var query: [String: String] = [:]
            if case .object(let fields)? = request["query"] {
                for (key, value) in fields { query[key] = fill(Self.text(value) ?? "") }
            }
            let answer = try server.send(method, String(fill(path).dropFirst("/parse".count)), query: query, headers: headers, body: body)
            guard let actual = try? JSONDecoder().decode(JSONValue.self, from: answer.body) else {
                Issue.record("\(label): the body is not JSON — got \(answer)")
                continue
            }
            Self.capture(actual, of: example, into: &placeholders)

            var differences: [String] = []
            if answer.status != response["status"]?.number.map(Int.init) { differences.append("status \(answer.status)") }
            if let location = response["location"].flatMap(Self.text), !(answer.headers["location"] ?? "").hasSuffix(fill(location)) {
                differences.append("Location \(answer.headers["location"] ?? "none"), expected …\(fill(location))")
            }
            let expected = response["body"] ?? .null
            differences += Self.errorDifferences(actual, expected, at: "body") + Replay.shapeDifferences(actual, expected, at: "body")
            #expect(differences.isEmpty, "\(label): \(differences.joined(separator: "; ")) — got \(answer)")
        }
    }

    /// Keeps what later examples name: the objectId and session token of a named example's
    /// answer, and the objectIds of a named batch's successes (`NAME.1`, `NAME.2`, …).
    static func capture(_ answer: JSONValue, of example: [String: JSONValue], into placeholders: inout [String: String]) {
        guard let name = example["name"].flatMap(text) else { return }
        switch answer {
        case .object(let fields):
            if let id = fields["objectId"].flatMap(text) { placeholders["<id:\(name)>"] = id }
            if let token = fields["sessionToken"].flatMap(text) { placeholders["<token:\(name)>"] = token }
        case .array(let results):
            for (index, result) in results.enumerated() {
                if case .object(let fields) = result, case .object(let success)? = fields["success"], let id = success["objectId"].flatMap(text) {
                    placeholders["<id:\(name).\(index + 1)>"] = id
                }
            }
        default:
            break
        }
    }

    /// Where an error the guide documents (an object with `code`, at the top or in a batch's
    /// answer) has another code or message in the answer.
    static func errorDifferences(_ actual: JSONValue, _ expected: JSONValue, at path: String) -> [String] {
        switch (expected, actual) {
        case (.object(let want), .object(let got)):
            if let code = want["code"] {
                return (got["code"] == code ? [] : ["\(path).code \(got["code"].map { "\($0)" } ?? "missing"), expected \(code)"])
                    + (want["error"] == nil || got["error"] == want["error"] ? [] : ["\(path).error \(got["error"].map { "\($0)" } ?? "missing"), expected \(want["error"]!)"])
            }
            return want.keys.sorted().flatMap { key in got[key].map { errorDifferences($0, want[key]!, at: "\(path).\(key)") } ?? [] }
        case (.array(let want), .array(let got)) where want.count == got.count:
            return zip(want, got).enumerated().flatMap { index, pair in errorDifferences(pair.1, pair.0, at: "\(path)[\(index)]") }
        default:
            return []
        }
    }

    private static func text(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }
}
