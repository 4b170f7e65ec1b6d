import Foundation

/// `Tests/Scripts/fake_facebook.py`, the Graph API's stand-in (Facebook cannot be reached from
/// here), on 127.0.0.1: its tokens `tok-alice` (user 1001), `tok-bob` (1002) for the app `appId`,
/// `tok-otherapp` (1003) for another app, and `tok-expired`. With `secret`, it refuses a call
/// without the right `appsecret_proof`, as Facebook does for an app that requires it.
package final class FakeFacebook: @unchecked Sendable {
    /// The Facebook app the tests' servers take tokens of.
    package static let appId = "4242424242"
    /// The app secret the tests' servers sign their calls with.
    package static let appSecret = "anywall-test-app-secret"

    private let server: TestHTTPServer

    /// Starts the stand-in; `secret` nil: it asks for no `appsecret_proof`.
    package init(secret: String? = appSecret) throws {
        server = try TestHTTPServer(script: "fake_facebook.py", arguments: ["--app-id", Self.appId, "--client-token", "anywall-test-client-token",
                                                                             "--port", "0"] + (secret.map { ["--app-secret", $0] } ?? []))
    }

    /// `http://127.0.0.1:PORT`
    package var url: String { "http://127.0.0.1:\(server.port)" }

    /// anywall-server's options that check Facebook tokens against this stand-in for `appId`.
    package var serverArguments: [String] { ["--facebook-app-ids", Self.appId, "--facebook-graph-url", url] }

    /// The Graph requests made so far: each one's method, path and query parameters.
    package func requests() throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(string: "\(url)/_test/log")!)
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    /// A URL nothing answers on: a port taken and let go, so connections to it are refused.
    package static func closedURL() throws -> String {
        "http://127.0.0.1:\(try Loopback.freePort())"
    }
}
