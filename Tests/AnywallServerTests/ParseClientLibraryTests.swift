import Foundation
import TestSupport
import Testing

/// A Parse client library nobody here wrote (parse-client 0.1.2 from PyPI, a fork of ParsePy)
/// drives the running server: sign up, log in, posts with fields of their own and ACLs,
/// constrained queries, batch save and delete, count, a role and a post its ACL gives the role,
/// Increment, and an anonymous sign-up converted with a password (`Tests/Scripts/parse_client_check.py`).
@Suite("anywall-server driven by a stock Parse client library")
struct ParseClientLibraryTests {
    @Test("parse-client signs up, logs in, saves, queries, counts, batches, deletes, makes a role and increments as on Parse")
    func parseClient() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-pc-\(UUID().uuidString).sqlite"))
        let script = TestHTTPServer.repositoryRoot.appendingPathComponent("Tests/Scripts/parse_client_check.py").path
        let box = try Sandbox()
        // The master key goes from its file to the script's environment, never onto a command line.
        let run = try box.shell("""
            PARSE_API_ROOT='\(server.parseURL)' PARSE_APP_ID='\(Sandbox.applicationId)' PARSE_REST_KEY='\(Sandbox.restKey)' \
            PARSE_MASTER_KEY="$(cat '\(box.masterKeyFile.path)')" python3 '\(script)'
            """)
        #expect(run.status == 0 && run.stdout.contains(" passed, 0 failed"), "\(run.stdout)\n\(run.stderr.suffix(2000))")
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "\(server.log.suffix(2000))")
    }
    @Test("parse-client signs up anonymously (authData.anonymous), logs in again, posts, and converts the account with a password")
    func anonymousSignUp() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-pc-\(UUID().uuidString).sqlite"))
        let script = TestHTTPServer.repositoryRoot.appendingPathComponent("Tests/Scripts/parse_client_check.py").path
        let box = try Sandbox()
        let run = try box.shell("""
            PARSE_API_ROOT='\(server.parseURL)' PARSE_APP_ID='\(Sandbox.applicationId)' PARSE_REST_KEY='\(Sandbox.restKey)' \
            python3 '\(script)' --anonymous
            """)
        #expect(run.status == 0 && run.stdout.contains(" passed, 0 failed"), "\(run.stdout)\n\(run.stderr.suffix(2000))")
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "\(server.log.suffix(2000))")
    }
}
