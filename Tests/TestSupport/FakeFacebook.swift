import Foundation

/// `Tests/Scripts/fake_facebook.py` on 127.0.0.1: a test double for Facebook's Graph API (which
/// cannot be reached from here), with its test controls: approve or deny a device login, read
/// every Graph request it was sent, register a token.
package final class FakeFacebook: @unchecked Sendable {
    package static let appId = "4815162342"
    package static let clientToken = "anywall-test-client-token"
    package static let appSecret = "anywall-test-app-secret"

    private let server: TestHTTPServer

    /// `interval` and `expiresIn` are the device login's, in seconds; `appSecret`: the proof
    /// anywall-server's adapter must send.
    package init(interval: Int = 1, expiresIn: Int = 420, appSecret: String? = nil) throws {
        server = try TestHTTPServer(script: "fake_facebook.py", arguments: [
            "--app-id", Self.appId, "--client-token", Self.clientToken, "--interval", String(interval), "--expires-in", String(expiresIn),
        ] + (appSecret.map { ["--app-secret", $0] } ?? []))
    }

    /// `http://127.0.0.1:PORT`, the Graph API's base URL.
    package var graphURL: String { "http://127.0.0.1:\(server.port)" }

    /// What the CLI needs to reach it: `ANYWALL_FACEBOOK_GRAPH_URL`.
    package var environment: [String: String] { ["ANYWALL_FACEBOOK_GRAPH_URL": graphURL] }

    /// Everything it printed on stderr (one line per request, tokens included: this is Facebook's log).
    package var log: String { server.log }

    /// Approves the pending device login of `userCode` as `user` (`alice` or `bob`).
    package func approve(_ userCode: String, as user: String = "alice") throws {
        _ = try control("/_test/approve", ["user_code": userCode, "user": user])
    }

    /// Denies the pending device login of `userCode`.
    package func deny(_ userCode: String) throws {
        _ = try control("/_test/deny", ["user_code": userCode])
    }

    /// Registers a token for a Facebook user (`appId`: another app's, to be refused).
    package func token(id: String, name: String, appId: String = FakeFacebook.appId) throws -> String {
        try control("/_test/token", ["id": id, "name": name, "app_id": appId])["access_token"] as? String ?? ""
    }

    /// Every Graph request so far: method, path, params, at (seconds since 1970).
    package func requests() throws -> [[String: Any]] {
        let answer = RawHTTPConnection.body(of: try RawHTTPConnection(port: server.port).request("GET", "/_test/log"))
        guard let list = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[String: Any]] else {
            throw HelperFailure(description: "fake_facebook's log is not a list: \(answer)")
        }
        return list
    }

    /// The times of the device login's polls, in order.
    package func pollTimes() throws -> [Double] {
        try requests().filter { $0["path"] as? String == "/device/login_status" }.compactMap { $0["at"] as? Double }
    }

    private func control(_ path: String, _ body: [String: String]) throws -> [String: Any] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let answer = try RawHTTPConnection(port: server.port).request("POST", path, body: json)
        guard answer.hasPrefix("HTTP/1.1 200"), let object = try JSONSerialization.jsonObject(with: Data(RawHTTPConnection.body(of: answer).utf8)) as? [String: Any] else {
            throw HelperFailure(description: "fake_facebook refused \(path): \(answer)")
        }
        return object
    }
}
