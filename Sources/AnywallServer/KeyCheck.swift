import AnywallSupport
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ParseWire
import WallDomain

/// Parse's key rules, before any route under the mount: the application id must match (else a
/// bare 403 `unauthorized`); a matching master key makes the caller master; otherwise the REST
/// API key must match when the server has one. A master key from an address outside
/// `masterKeyAddresses` is refused (403, as Parse Server). A session token must be one the wall
/// knows, on every route: an unknown or ended one is refused with 209, as Parse Server refuses it
/// (clients rely on it to notice a logout), never taken as nobody signed in; except on the
/// log-in's URL without a query (`POST /login`), where Parse Server drops it (a client logging in
/// again may still send an ended one).
struct KeyCheck: RouterMiddleware {
    typealias Context = ParseContext
    let keys: ServerKeys
    let masterKeyAddresses: AddressList
    let wall: any WallStore
    /// The log-in's path under the mount, as the request names it.
    let loginPath: String

    func handle(_ request: Request, context: ParseContext, next: (Request, ParseContext) async throws -> Response) async throws -> Response {
        guard Self.same(request.headers[HTTPField.Name(ParseHeader.applicationId)!], keys.applicationId) else {
            return ParseRefusal.unauthorized.response
        }
        var context = context
        context.caller.isMaster = Self.same(request.headers[HTTPField.Name(ParseHeader.masterKey)!], keys.masterKey)
        if context.caller.isMaster, context.isForwardedByUntrustedPeer || !masterKeyAddresses.allows(context.remoteAddress) {
            ServerLog.event("error", ["error": .string("Request using master key rejected as the request IP address '"
                + (context.remoteAddress ?? "-") + (context.isForwardedByUntrustedPeer
                    ? "' forwards a client and is not a --trusted-proxy" : "' is not set in anywall-server's --master-key-ips"))])
            return ParseRefusal.unauthorized.response
        }
        if let restKey = keys.restKey, !context.caller.isMaster, !Self.same(request.headers[HTTPField.Name(ParseHeader.restKey)!], restKey) {
            return ParseRefusal.unauthorized.response
        }
        // Parse Server drops it on the log-in's URL exactly (no query: `GET /login?...` keeps it).
        let loggingIn = request.uri.path == loginPath && (request.uri.query ?? "").isEmpty
        context.caller.sessionToken = loggingIn ? nil : request.headers[HTTPField.Name(ParseHeader.sessionToken)!].flatMap { $0.isEmpty ? nil : $0 }
        if let token = context.caller.sessionToken {
            context.caller.user = try await wall.user(token: token)
        }
        return try await next(request, context)
    }

    /// Whether a presented key equals the expected one, in time that does not depend on where
    /// they differ (digests of equal length, compared whole).
    static func same(_ presented: String?, _ expected: String) -> Bool {
        guard let presented else { return false }
        let a = Array(SHA256.hash(data: Data(presented.utf8)))
        let b = Array(SHA256.hash(data: Data(expected.utf8)))
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
