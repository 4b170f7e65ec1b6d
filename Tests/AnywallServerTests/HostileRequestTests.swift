import Foundation
import TestSupport
import Testing

/// Requests that once ended the server for everyone (a Swift trap): each now gets a Parse error,
/// and the same server answers the next request.
@Suite("anywall-server: hostile requests")
struct HostileRequestTests {
    private static let headers = "Host: 127.0.0.1\r\nX-Parse-Application-Id: \(Sandbox.applicationId)\r\nX-Parse-REST-API-Key: \(Sandbox.restKey)\r\n"

    @Test("a refused request, then the server still serves",
          arguments: [
            // Int(2^63) trapped.
            ("/parse/classes/Posts?limit=9223372036854775807", "HTTP/1.1 400", "\"code\":102"),
            ("/parse/classes/Posts?skip=1e300", "HTTP/1.1 400", "\"code\":102"),
            ("/parse/classes/Posts?limit=-0.5", "HTTP/1.1 400", "\"code\":102"),
            // URLComponents trapped on a stray %.
            ("/parse/classes/Posts?a=%", "HTTP/1.1 400", "\"code\":102"),
            ("/parse/classes/Posts?where=%7B%22objectId%22:%25zz%7D", "HTTP/1.1 400", "\"code\""),
            ("/parse/classes/Posts?%=%&=", "HTTP/1.1 400", "\"code\":102"),
          ])
    func refusedAndStillServing(path: String, status: String, body: String) throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory
            .appendingPathComponent("anywall-server-\(UUID().uuidString).sqlite"))
        let hostile = try RawHTTPConnection(port: server.port)
        hostile.write("GET \(path) HTTP/1.1\r\n\(Self.headers)\r\n")
        let answer = hostile.readAnswer()
        #expect(answer.hasPrefix(status), "\(answer)")
        #expect(answer.contains(body), "\(answer)")
        let next = try server.send("GET", "/classes/Posts")
        #expect(next.status == 200, "\(next)")
        #expect(server.stop() == 0)
    }
}
