import Foundation

/// Runs `Tests/Scripts/livequery_check.py` (a plain WebSocket client speaking Parse's LiveQuery
/// protocol) in one of its modes against a running server, with the keys a test server has; the
/// master key goes from its file to the script's environment, never onto a command line.
package enum LiveQueryCheck {
    package static func run(_ mode: String, against server: WallServer, environment: [String: String] = [:]) throws -> Sandbox.Run {
        let script = TestHTTPServer.repositoryRoot.appendingPathComponent("Tests/Scripts/livequery_check.py").path
        let box = try Sandbox()
        let extra = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        return try box.shell("""
            PARSE_API_ROOT='\(server.parseURL)' PARSE_APP_ID='\(Sandbox.applicationId)' PARSE_REST_KEY='\(Sandbox.restKey)' \(extra) \
            PARSE_MASTER_KEY="$(cat '\(box.masterKeyFile.path)')" timeout 300 python3 '\(script)' \(mode)
            """)
    }
}
