import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The few calls anywall makes to Facebook's Graph API over libcurl: the device login (a code for
/// the user to enter at facebook.com/device, then polls) and `/me`. Its answers become
/// `AnywallError`s whose words never hold a token.
public final class FacebookGraph {
    /// Where the Graph API is (no trailing slash): `https://graph.facebook.com`, or a stand-in in tests.
    public let baseURL: String
    private let http: CurlClient

    /// The device login's error subcodes (Facebook's "Login for Devices" guide).
    static let pendingSubcode = 1_349_174
    static let slowDownSubcode = 1_349_172
    static let expiredSubcode = 1_349_152

    /// The default Graph API.
    public static let defaultURL = "https://graph.facebook.com"

    /// Loads libcurl; nothing is sent yet. `baseURL` must be http(s) with a host.
    public init(baseURL: String, timeouts: HTTPTimeouts) throws {
        var url = baseURL.trimmingCharacters(in: .whitespaces)
        while url.hasSuffix("/") { url.removeLast() }
        guard let parsed = URLComponents(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
              !(parsed.host ?? "").isEmpty, parsed.query == nil else {
            throw AnywallError.inputRejected("bad Facebook Graph API URL '\(baseURL)': expected http:// or https:// with a host")
        }
        guard !ParseServer.sendsInClear(to: url) else {
            throw AnywallError.inputRejected("refusing to send Facebook tokens to \(url) over unencrypted http://: use https://")
        }
        self.baseURL = url
        http = try CurlClient(timeouts: timeouts)
    }

    /// Starts a device login for the app (`APPID|CLIENTTOKEN`), asking for the public profile.
    public func startDeviceLogin(appId: String, clientToken: String) throws -> DeviceLoginCode {
        let answer = try post("device/login", form: [("access_token", "\(appId)|\(clientToken)"), ("scope", "public_profile")])
        guard answer.status == 200 else { throw refusal(answer) }
        return try decode(DeviceLoginCode.self, answer)
    }

    /// Asks whether the device login of `code` was approved.
    public func deviceLoginStatus(code: String, appId: String, clientToken: String) throws -> DeviceLoginStatus {
        let answer = try post("device/login_status", form: [("access_token", "\(appId)|\(clientToken)"), ("code", code)])
        if answer.status == 200 {
            let approved = try decode(ApprovedLogin.self, answer)
            return .approved(accessToken: approved.accessToken, expiresIn: approved.expiresIn ?? 0)
        }
        switch Self.error(in: answer)?.subcode {
        case Self.pendingSubcode: return .pending
        case Self.slowDownSubcode: return .slowDown
        case Self.expiredSubcode: return .expired
        default: throw refusal(answer)
        }
    }

    /// The Facebook user the token belongs to: their id and name.
    public func me(accessToken: String) throws -> (id: String, name: String?) {
        let url = "\(baseURL)/me?fields=id,name&access_token=\(Self.formEncoded(accessToken))"
        let answer = try send(HTTPRequest(method: .get, url: url, headers: []))
        guard answer.status == 200 else { throw refusal(answer) }
        let me = try decode(Me.self, answer)
        return (me.id, me.name.flatMap { $0.isEmpty ? nil : $0 })
    }

    // MARK: The exchange

    private func post(_ path: String, form: [(String, String)]) throws -> HTTPResponse {
        let body = form.map { "\($0.0)=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        return try send(HTTPRequest(method: .post, url: "\(baseURL)/\(path)",
                                    headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(body.utf8)))
    }

    private func send(_ request: HTTPRequest) throws -> HTTPResponse {
        do {
            return try http.perform(request)
        } catch {
            // libcurl's words name the host and port, never the URL's query (where a token may be).
            throw AnywallError.backendUnreachable("cannot reach Facebook at \(baseURL): \(error.reason)")
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ answer: HTTPResponse) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: answer.body)
        } catch {
            throw AnywallError.protocolError("Facebook at \(baseURL) sent an answer anywall cannot read (HTTP \(answer.status))")
        }
    }

    /// A Graph API error as anywall words it: Facebook's own message (which never repeats the token).
    private func refusal(_ answer: HTTPResponse) -> AnywallError {
        guard let error = Self.error(in: answer) else {
            if answer.status >= 500 { return .backendUnreachable("Facebook at \(baseURL) failed (HTTP \(answer.status))") }
            return .protocolError("Facebook at \(baseURL) answered HTTP \(answer.status) without a Graph API error")
        }
        if answer.status >= 500 { return .backendUnreachable("Facebook at \(baseURL) failed: \(error.message)") }
        return .facebookRefused("\(error.message) (Graph API error \(error.code))")
    }

    private static func error(in answer: HTTPResponse) -> GraphError? {
        (try? JSONDecoder().decode(GraphErrorAnswer.self, from: answer.body))?.error
    }

    /// `application/x-www-form-urlencoded`: only RFC 3986's unreserved characters stay as they are.
    private static func formEncoded(_ value: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    // MARK: Answers

    private struct ApprovedLogin: Decodable {
        let accessToken: String
        let expiresIn: Int?
        private enum CodingKeys: String, CodingKey { case accessToken = "access_token", expiresIn = "expires_in" }
    }

    private struct Me: Decodable {
        let id: String
        let name: String?
    }

    private struct GraphErrorAnswer: Decodable {
        let error: GraphError
    }

    private struct GraphError: Decodable {
        let message: String
        let code: Int
        let subcode: Int?
        private enum CodingKeys: String, CodingKey { case message, code, subcode = "error_subcode" }
    }
}
