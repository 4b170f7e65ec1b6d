import AnywallServer
import EmbeddedStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport
import WallDomain

/// The application `ServerApplication` builds, driven in process through HummingbirdTesting (the
/// same router the binary serves; `AnywallServerTests`' other suites run the binary over HTTP).
@Suite("The server application, in process")
struct ServerApplicationTests {
    private func app() throws -> some ApplicationProtocol {
        let keys = try ServerKeys.from([ServerKeys.applicationIdName: "app", ServerKeys.masterKeyName: "master"])
        return Application(router: ServerApplication.router(wall: SQLiteWallStore(try temporaryWall()), keys: keys, mount: "/parse"))
    }

    private static let appId: HTTPFields = [HTTPField.Name("X-Parse-Application-Id")!: "app"]

    private static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(buffer: buffer)) as? [String: Any] ?? [:]
    }

    @Test("health answers beside the mount; a request without the application id gets Parse's bare 403")
    func healthAndKeys() async throws {
        try await app().test(.router) { client in
            try await client.execute(uri: "/parse/health", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/parse/classes/Posts", method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body) == "{\"error\":\"unauthorized\"}")
            }
        }
    }

    @Test("sign up, post and find the post near its place, with the author included")
    func signUpPostAndFind() async throws {
        try await app().test(.router) { client in
            var headers = Self.appId
            let signup = try await client.execute(uri: "/parse/users", method: .post, headers: headers,
                                                  body: ByteBuffer(string: #"{"username":"alice","password":"pw-alice-1"}"#))
            #expect(signup.status == .created)
            let token = try #require(try Self.json(signup.body)["sessionToken"] as? String)
            headers[HTTPField.Name("X-Parse-Session-Token")!] = token
            let post = try await client.execute(uri: "/parse/classes/Posts", method: .post, headers: headers, body: ByteBuffer(string: """
                {"text":"Free coffee","location":{"__type":"GeoPoint","latitude":37.7793,"longitude":-122.4193}}
                """))
            #expect(post.status == .created)
            let whereClause = #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":37.78,"longitude":-122.42},"$maxDistanceInKilometers":100}}"#
            let query = "where=" + whereClause.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&include=user"
            try await client.execute(uri: "/parse/classes/Posts?\(query)", method: .get, headers: Self.appId) { response in
                #expect(response.status == .ok)
                let results = try #require(try Self.json(response.body)["results"] as? [[String: Any]])
                #expect(results.count == 1)
                #expect(results.first?["text"] as? String == "Free coffee")
                #expect((results.first?["user"] as? [String: Any])?["username"] as? String == "alice")
            }
        }
    }

    @Test("refusals carry Parse's codes: 102 for an unknown parameter, 209 for an unknown session token")
    func refusals() async throws {
        try await app().test(.router) { client in
            try await client.execute(uri: "/parse/classes/Posts?radius=1", method: .get, headers: Self.appId) { response in
                let body = try Self.json(response.body)
                #expect(response.status == .badRequest && body["code"] as? Int == 102)
            }
            var headers = Self.appId
            headers[HTTPField.Name("X-Parse-Session-Token")!] = "r:unknown"
            try await client.execute(uri: "/parse/users/me", method: .get, headers: headers) { response in
                let body = try Self.json(response.body)
                #expect(body["code"] as? Int == 209)
            }
        }
    }

    @Test("the OpenAPI document names exactly the routes the server has, and is served beside the mount")
    func openAPIMatchesRoutes() async throws {
        let keys = try ServerKeys.from([ServerKeys.applicationIdName: "app", ServerKeys.masterKeyName: "master"])
        let router = ServerApplication.router(wall: SQLiteWallStore(try temporaryWall()), keys: keys, mount: "/parse")
        let served = Set(router.routes.map { route in
            let path = route.path.description.split(separator: "/").dropFirst()
                .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
            return "\(route.method.rawValue) /\(path)"
        })
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in
            operations.keys.filter { $0 != "parameters" }.map { "\($0.uppercased()) \(path)" }
        })
        #expect(served.subtracting(documented).isEmpty, "routes missing from the document: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
        try await app().test(.router) { client in
            try await client.execute(uri: "/parse/openapi.json", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body) == OpenAPIDocument.json)
            }
        }
    }
}

/// Request ids are forgotten while the server runs, not only when it starts.
@Suite("Request ids pruned while serving")
struct RequestIdPruningTests {
    @Test("an id older than a month is forgotten by the pruning the server runs hourly: the same id makes a new post")
    func pruned() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-prune-\(UUID().uuidString).sqlite")
        // Posted 31 days ago, as a wall whose clock says so.
        let past = try temporaryWall(clock: WallClock { Date().addingTimeInterval(-31 * 24 * 3600) }, file: file)
        let session = try past.signUp(username: "alice", password: "pw", name: nil)
        _ = try past.createStoredPost(PostDraft(text: "old", location: try GeoPoint(latitude: 1, longitude: 1)), by: .session(session.token), requestId: "same-id")
        let now = try temporaryWall(file: file)
        #expect(throws: AnywallError.duplicateRequest(requestId: "same-id")) {
            try now.createStoredPost(PostDraft(text: "again", location: try GeoPoint(latitude: 1, longitude: 1)), by: .session(session.token), requestId: "same-id")
        }
        // One pass of what the server runs hourly (the loop around it only sleeps between passes).
        try await ServerApplication.forgetExpiredRequestIds(of: SQLiteWallStore(now))
        _ = try now.createStoredPost(PostDraft(text: "again", location: try GeoPoint(latitude: 1, longitude: 1)), by: .session(session.token), requestId: "same-id")
    }
}
