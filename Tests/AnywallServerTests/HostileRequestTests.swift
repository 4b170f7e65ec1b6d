import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

    /// Foundation's FileHandle.write trapped on a full or closed stderr: one log line on a full
    /// disk ended the server for everyone.
    @Test("a log on a full disk loses its lines, never the server")
    func fullLogDisk() throws {
        let port = try Loopback.freePort()
        let process = Process()
        process.executableURL = WallServer.binary
        process.arguments = ["--store", FileManager.default.temporaryDirectory.appendingPathComponent("anywall-full-log-\(UUID().uuidString).sqlite").path,
                             "--port", "\(port)"]
        process.environment = ["PARSE_SERVER_APPLICATION_ID": Sandbox.applicationId, "PARSE_SERVER_MASTER_KEY": Sandbox.masterKey,
                               "PARSE_SERVER_REST_API_KEY": Sandbox.restKey]
        process.standardError = FileHandle(forWritingAtPath: "/dev/full")
        process.standardOutput = FileHandle.nullDevice
        try process.runRetryingDescriptorRace()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var connection: RawHTTPConnection?
        let deadline = ContinuousClock.now + .seconds(20)
        while connection == nil, process.isRunning, ContinuousClock.now < deadline {
            connection = try? RawHTTPConnection(port: port)
            if connection == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        let served = try #require(connection, "anywall-server did not start")
        for _ in 1...3 {
            let answer = served.request("GET", "/parse/classes/Posts")
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        }
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
