import AnywallSupport
import AsyncHTTPClient
import Foundation
import NIOCore
import ParseWire
import WallDomain

/// Facebook's `authData` checked as Parse Server's facebook adapter checks it, against the Graph
/// API: the token's app must be one of `appIds` (`GET /app`), then the token's user must be the
/// `id` sent (`GET /me?fields=id`), each call with `appsecret_proof` when an app secret is set.
/// Every failure of a check is Parse's 101 "Facebook auth is invalid for this user."; a Graph API
/// that cannot be reached, or answers what is not JSON, is 141, as Parse Server passes on such an
/// error. Each call is bounded by `timeout`: a Graph API that hangs holds only the log-ins that
/// wait on it, never another client's request.
package struct FacebookAuth: Sendable {
    /// The Facebook apps whose tokens log in (`--facebook-app-ids`); none: Facebook is not configured.
    package let appIds: Set<String>
    /// The app secret, which signs each call (`appsecret_proof`) when set.
    package let appSecret: String?
    /// The Graph API's base URL, without a trailing slash.
    package let graphURL: String
    /// The longest one call to the Graph API may take.
    package let timeout: Duration

    /// Facebook's own Graph API.
    package static let defaultGraphURL = "https://graph.facebook.com"

    package init(appIds: Set<String>, appSecret: String?, graphURL: String = defaultGraphURL, timeout: Duration = .seconds(5)) {
        self.appIds = appIds
        self.appSecret = appSecret.flatMap { $0.isEmpty ? nil : $0 }
        self.graphURL = String(graphURL.reversed().drop { $0 == "/" }.reversed())
        self.timeout = timeout
    }

    /// The longest access token sent on: Facebook's are a few hundred characters.
    static let maxTokenLength = 4096

    /// The identity `entry` stands for, once the Graph API vouches for its token: its id, and
    /// its `expiration_date` when it is a string. The token itself is never kept.
    func verify(_ entry: AuthDataBody.Entry) async throws -> AuthIdentity {
        // Parse Server's words when its adapter has no app ids to check against.
        guard !appIds.isEmpty else { throw ParseRefusal(ParseErrorCode.objectNotFound, "Facebook auth is not configured.") }
        guard case .string(let token)? = entry.fields["access_token"], !token.isEmpty, token.utf8.count <= Self.maxTokenLength else {
            throw Self.invalid
        }
        guard let app = try await graph("app", token: token)["id"]?.string, appIds.contains(app) else { throw Self.invalid }
        guard try await graph("me", fields: "id", token: token)["id"]?.string == entry.id else { throw Self.invalid }
        var kept: [String: JSONValue] = [:]
        if case .string(let expires)? = entry.fields["expiration_date"], expires.count <= 64 { kept["expiration_date"] = .string(expires) }
        return AuthIdentity(provider: "facebook", id: entry.id, fields: kept)
    }

    static let invalid = ParseRefusal(ParseErrorCode.objectNotFound, "Facebook auth is invalid for this user.")

    /// The Graph API's JSON answer to `GET /<path>` for `token`: an error's body too (it has no
    /// `id`, so the check fails). Never the token in what it throws: errors reach clients and the log.
    private func graph(_ path: String, fields: String? = nil, token: String) async throws -> [String: JSONValue] {
        var query = fields.map { "fields=\($0)&" } ?? ""
        query += "access_token=\(Self.queryEncoded(token))"
        if let appSecret { query += "&appsecret_proof=\(HexDigest.hmacSHA256(token, key: appSecret))" }
        let request = HTTPClientRequest(url: "\(graphURL)/\(path)?\(query)")
        let body: ByteBuffer
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: TimeAmount(timeout))
            body = try await response.body.collect(upTo: 64 * 1024)
        } catch {
            throw ParseRefusal(ParseErrorCode.scriptFailed, "Facebook's Graph API did not answer (\(Self.kind(of: error))).")
        }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView)) else {
            throw ParseRefusal(ParseErrorCode.scriptFailed, "Facebook's Graph API answered something that is not JSON.")
        }
        return object
    }

    /// `text` with everything but unreserved characters percent-encoded, for a query's value.
    private static func queryEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// What went wrong, in a few words that cannot hold the request's URL (and so its token).
    private static func kind(of error: any Error) -> String {
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout:
            return "timed out"
        case is HTTPClientError: return "the request failed"
        case is NIOTooManyBytesError: return "the answer was too large"
        default: return "cannot connect"
        }
    }
}
