import Foundation
import TestSupport
import Testing

/// schemathesis (PyPI) generates requests from the server's own OpenAPI document, valid and
/// not, through every route: none may get a 5xx, and the server must outlive them all.
/// `/requestPasswordReset` is left out: its answer is always Parse Server's 500 (no email adapter).
@Suite("anywall-server fuzzed over HTTP by schemathesis")
struct SchemathesisTests {
    @Test("no request schemathesis makes gets a 5xx, and the server keeps serving")
    func noServerErrors() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory
            .appendingPathComponent("anywall-server-\(UUID().uuidString).sqlite"))
        let run = try Sandbox().shell("""
            schemathesis run '\(server.parseURL)/openapi.json' --url '\(server.parseURL)' \
              -H 'X-Parse-Application-Id: \(Sandbox.applicationId)' -H 'X-Parse-REST-API-Key: \(Sandbox.restKey)' \
              --exclude-path /requestPasswordReset --checks not_a_server_error --max-examples 25 --seed 20261124 --request-timeout 10 --no-color
            """)
        #expect(run.status == 0, "\(run.stdout.suffix(3000))\n\(run.stderr.suffix(2000))")
        #expect(run.stdout.contains("passed"), "\(run.stdout.suffix(2000))")
        #expect(try server.send("GET", "/classes/Posts").status == 200)
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "\(server.log.suffix(2000))")
        #expect(server.stop() == 0)
    }
}
