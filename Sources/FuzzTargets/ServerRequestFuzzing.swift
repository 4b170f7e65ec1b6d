import AnywallServer
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
/// body. Sign-up, log-in and password changes are left out: each hashes a password with scrypt
/// (tens of milliseconds) once its body parses, which would stall the fuzzer; schemathesis and
/// `HostileRequestTests` cover them over HTTP.
enum ServerRequestFuzzing {
    private static let applicationId = "fuzz"
    private static let masterKey = "fuzz-master"

    /// The routes a request may take; `{post}` is a post on the wall, so edits and reads hit a row.
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
    ]

    /// The application and a signed-up user with one post, made once for every input.
    private static let served: (responder: any HTTPResponder<ParseContext>, token: String, postId: String) = {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let file = URL(fileURLWithPath: folder).appendingPathComponent("anywall-fuzz-\(getpid()).sqlite")
        do {
            let embedded = try EmbeddedWall(file: file)
            let session = try embedded.signUp(username: "fuzz", password: "fuzz-password", name: nil)
            let post = try embedded.createPost(text: "a post to edit", at: try GeoPoint(latitude: 0, longitude: 0),
                                               session: session, requestId: "fuzz-seed")
            let keys = try ServerKeys.from([ServerKeys.applicationIdName: applicationId, ServerKeys.masterKeyName: masterKey])
            let router = ServerApplication.router(wall: SharedWall(embedded), keys: keys, mount: "/parse")
            return (router.buildResponder(), session.token, post.objectId)
        } catch {
            fatalError("the fuzz target's wall cannot be made: \(error)")
        }
    }()

    private static let logger = Logger(label: "anywall-fuzz", factory: { _ in SwiftLogNoOpLogHandler() })

    static func run(_ input: [UInt8]) {
        guard let routeByte = input.first else { return }
        let route = routes[Int(routeByte) % routes.count]
        let rest = input.dropFirst()
        let queryEnd = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        let query = String(decoding: rest[..<queryEnd], as: UTF8.self)
        let body = queryEnd < rest.endIndex ? Array(rest[(queryEnd + 1)...]) : []

        var fields: HTTPFields = [HTTPField.Name("X-Parse-Application-Id")!: applicationId,
                                  HTTPField.Name("X-Parse-Session-Token")!: served.token,
                                  .contentType: "application/json"]
        if route.master { fields[HTTPField.Name("X-Parse-Master-Key")!] = masterKey }
        let path = route.path.replacingOccurrences(of: "{post}", with: served.postId)
        let head = HTTPRequest(method: route.method, scheme: "http", authority: "localhost",
                               path: query.isEmpty ? path : path + "?" + query, headerFields: fields)
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
        let context = ParseContext(remoteAddress: "127.0.0.1", logger: logger)
        let responder = served.responder
        let done = DispatchSemaphore(value: 0)
        Task {
            // Whatever is thrown is answered by the server's error middleware; only a trap would end the process.
            _ = try? await responder.respond(to: request, context: context)
            done.signal()
        }
        done.wait()
    }
}
