import AnywallServer
import AnywallSupport
import Dispatch
import EmbeddedStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import WallDomain

/// A request to anywall-server, handled in process by the application the server runs: the first
/// byte picks the route, the bytes up to the first line feed are its query string, the rest its
/// body. The wall hashes passwords with scrypt at its lowest cost, so that sign-up and log-in are
/// fuzzed too (at the standard cost each valid one would take tens of milliseconds).
enum ServerRequestFuzzing {
    private static let applicationId = "fuzz"
    private static let masterKey = "fuzz-master"
    private static let username = "fuzz"
    private static let password = "fuzz-password"

    /// The routes a request may take; `{post}` is a post on the wall, so edits and reads hit a row,
    /// `{user}` the signed-up user (read only: a change would end the log-ins below), `{other}` a
    /// post by another user (to vote on, report and reply to) and `{role}` a role. The same names
    /// in a body stand for the same objects. New routes go at the end, so the seeds keep theirs.
    private static let routes: [(method: HTTPRequest.Method, path: String, master: Bool)] = [
        (.get, "/parse/classes/Posts", false),
        (.post, "/parse/classes/Posts", false),
        (.get, "/parse/classes/Posts/{post}", false),
        (.put, "/parse/classes/Posts/{post}", false),
        (.delete, "/parse/classes/Posts/{post}", false),
        (.get, "/parse/classes/Posts", true),
        (.get, "/parse/users/me", false),
        (.get, "/parse/config", false),
        (.put, "/parse/config", true),
        (.get, "/parse/schemas/Posts", true),
        (.post, "/parse/logout", false),
        (.get, "/parse/health", false),
        (.post, "/parse/users", false),
        (.get, "/parse/login", false),
        (.post, "/parse/login", false),
        (.post, "/parse/batch", false),
        (.post, "/parse/batch", true),
        (.get, "/parse/sessions/me", false),
        (.get, "/parse/serverInfo", true),
        (.post, "/parse/requestPasswordReset", false),
        (.get, "/parse/users", false),
        (.put, "/parse/schemas/Posts", true),
        (.get, "/parse/schemas", true),
        (.get, "/parse/classes/_User", false),
        (.get, "/parse/classes/_User/{user}", false),
        (.get, "/parse/users/{user}", false),
        (.options, "/parse/classes/Posts", false),
        (.post, "/parse/classes/Activity", false),
        (.get, "/parse/classes/Activity", false),
        (.post, "/parse/roles", true),
        (.get, "/parse/roles", false),
        (.put, "/parse/roles/{role}", true),
        (.put, "/parse/classes/Posts/{other}", false),
        (.delete, "/parse/roles/{role}", true),
    ]

    /// The application on a wall with a signed-up user and one post.
    private struct Served {
        let wall: EmbeddedWall
        let responder: any HTTPResponder<ParseContext>
        var token: String
        let postId: String
        let userId: String
        let otherPostId: String
        let roleId: String

        init(_ wall: EmbeddedWall) throws {
            self.wall = wall
            let session = try wall.signUp(username: username, password: password, name: nil)
            token = session.token
            userId = session.user.objectId
            postId = try wall.createPost(text: "a post to edit", at: try GeoPoint(latitude: 0, longitude: 0),
                                         session: session, requestId: "fuzz-seed").objectId
            let other = try wall.signUp(username: "fuzz-other", password: password, name: nil)
            otherPostId = try wall.createPost(text: "a post to vote on", at: try GeoPoint(latitude: 0, longitude: 0),
                                              session: other, requestId: "fuzz-other-seed").objectId
            roleId = try wall.createRole(name: RoleName.moderators, acl: ["*": .read], users: [other.user.objectId])?.objectId ?? ""
            let keys = try ServerKeys.from([ServerKeys.applicationIdName: applicationId, ServerKeys.masterKeyName: masterKey])
            // Every address's log-in budget as good as endless: the gate's refusals are not what is fuzzed here.
            var limits = ClientLimits()
            limits.passwords.attemptsPerAddress = Int.max / 2
            // The seeds' short passwords reach sign-up and log-in; the minimum is one check before them.
            limits.passwords.minimumPasswordLength = 1
            responder = ServerApplication.router(wall: SQLiteWallStore(wall), keys: keys, mount: "/parse", limits: limits).buildResponder()
        }
    }

    /// libFuzzer runs one input at a time, on one thread.
    nonisolated(unsafe) private static var walls = FuzzWalls("request", setUp: Served.init)
    private static var served: Served { walls.current }

    private static let logger = Logger(label: "anywall-fuzz", factory: { _ in SwiftLogNoOpLogHandler() })

    /// `text` with the names of the wall's objects put in.
    private static func named(_ text: String) -> String {
        [("{post}", served.postId), ("{user}", served.userId), ("{other}", served.otherPostId), ("{role}", served.roleId)]
            .reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    static func run(_ input: [UInt8]) {
        guard let routeByte = input.first else { return }
        let route = routes[Int(routeByte) % routes.count]
        let rest = input.dropFirst()
        let queryEnd = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        let query = String(decoding: rest[..<queryEnd], as: UTF8.self)
        let body = queryEnd < rest.endIndex ? Array(rest[(queryEnd + 1)...]) : []

        walls.beginInput()
        let token = served.token
        var fields: HTTPFields = [HTTPField.Name("X-Parse-Application-Id")!: applicationId,
                                  HTTPField.Name("X-Parse-Session-Token")!: token,
                                  .contentType: "application/json",
                                  // Every request as a web page's: the CORS middleware answers or marks each.
                                  .origin: "https://fuzz.example", .accessControlRequestMethod: "POST"]
        if route.master { fields[HTTPField.Name("X-Parse-Master-Key")!] = masterKey }
        let head = HTTPRequest(method: route.method, scheme: "http", authority: "localhost",
                               path: named(query.isEmpty ? route.path : route.path + "?" + query), headerFields: fields)
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: Array(named(String(decoding: body, as: UTF8.self)).utf8))))
        let context = ParseContext(remoteAddress: "127.0.0.1", logger: logger)
        let responder = served.responder
        let done = DispatchSemaphore(value: 0)
        Task {
            // Whatever is thrown is answered by the server's error middleware; only a trap would end the process.
            _ = try? await responder.respond(to: request, context: context)
            done.signal()
        }
        done.wait()
        // A log-out ends the session every later input is sent with: open another (cheap here).
        if route.path == "/parse/logout", let session = try? served.wall.logIn(username: username, password: password) {
            walls.current.token = session.token
        }
    }
}
