import Foundation

/// `Tests/Scripts/fake_facebook.py`, the Graph API's stand-in (Facebook cannot be reached from
/// here), on 127.0.0.1: its tokens `tok-alice` (user 1001), `tok-bob` (1002) for the app `appId`,
/// `tok-otherapp` (1003) for another app, and `tok-expired`. With `secret`, it refuses a call
/// without the right `appsecret_proof`, as Facebook does for an app that requires it. Its test
/// controls approve or deny a device login and list every Graph request.
package final class FakeFacebook: @unchecked Sendable {
    /// The Facebook app the tests' servers take tokens of.
    package static let appId = "4242424242"
    /// The app's client token, for the CLI's device login (not a secret: apps embed it).
    package static let clientToken = "anywall-test-client-token"
    /// The app secret the tests' servers sign their calls with.
    package static let appSecret = "anywall-test-app-secret"

    private let server: TestHTTPServer

    /// Starts the stand-in; `secret` nil: it asks for no `appsecret_proof` (the CLI, which holds
    /// no secret, calls `/me` itself). `interval` and `expiresIn`: the device login's, in seconds.
    package init(secret: String? = appSecret, interval: Int = 1, expiresIn: Int = 420) throws {
        server = try TestHTTPServer(script: "fake_facebook.py", arguments: [
            "--app-id", Self.appId, "--client-token", Self.clientToken, "--port", "0",
            "--interval", String(interval), "--expires-in", String(expiresIn),
        ] + (secret.map { ["--app-secret", $0] } ?? []))
    }

    /// `http://127.0.0.1:PORT`
    package var url: String { "http://127.0.0.1:\(server.port)" }

    /// anywall-server's options that check Facebook tokens against this stand-in for `appId`.
    package var serverArguments: [String] { ["--facebook-app-ids", Self.appId, "--facebook-graph-url", url] }

    /// What the CLI needs to reach it: `ANYWALL_FACEBOOK_GRAPH_URL`.
    package var cliEnvironment: [String: String] { ["ANYWALL_FACEBOOK_GRAPH_URL": url] }

    /// The Graph requests made so far: each one's method, path, query parameters and time (`at`,
    /// seconds since 1970).
    package func requests() throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(string: "\(url)/_test/log")!)
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    /// The times of the device login's polls, in order.
    package func pollTimes() throws -> [Double] {
        try requests().filter { $0["path"] as? String == "/device/login_status" }.compactMap { $0["at"] as? Double }
    }

    /// Approves the pending device login of `userCode` as `user` (`alice` or `bob`).
    package func approve(_ userCode: String, as user: String = "alice") throws {
        try control("/_test/approve", ["user_code": userCode, "user": user])
    }

    /// Denies the pending device login of `userCode`.
    package func deny(_ userCode: String) throws {
        try control("/_test/deny", ["user_code": userCode])
    }

    /// Polls the first device login as another device would, so that the next poll of anywall's comes too soon.
    package func pollAsAnotherDevice() throws {
        let first = try requests().first { $0["path"] as? String == "/device/login_status" }
        let code = (first?["params"] as? [String: String])?["code"] ?? ""
        _ = try RawHTTPConnection(port: server.port).request(
            "POST", "/device/login_status?access_token=\(Self.appId)%7C\(Self.clientToken)&code=\(code)")
    }

    private func control(_ path: String, _ body: [String: String]) throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let answer = try RawHTTPConnection(port: server.port).request("POST", path, body: json)
        guard answer.hasPrefix("HTTP/1.1 200") else { throw HelperFailure(description: "fake_facebook refused \(path): \(answer)") }
    }

    /// A URL nothing answers on: a port taken and let go, so connections to it are refused.
    package static func closedURL() throws -> String {
        "http://127.0.0.1:\(try Loopback.freePort())"
    }
}
