import AnywallSupport
import HTTPTypes
import Hummingbird
import ParseWire

/// The request id a write is kept under: the client's `X-Parse-Request-Id` within its caller's
/// scope (the user of its session, or the master key), as a digest. Kept globally, an id that
/// someone else saw or guessed would make another user's post answer 159, which an outbox takes
/// as delivered: the post would be lost. As a digest, an id takes 64 characters in the wall
/// whatever its length (one of 80 KB was kept for 30 days).
enum RequestIdScope {
    /// The id `request` carries, scoped to its caller; nil when it carries none (or when the
    /// server keeps no request ids).
    static func key(_ request: Request, _ context: ParseContext, keeping: Bool) -> String? {
        guard keeping, let id = request.headers[HTTPField.Name(ParseHeader.requestId)!] else { return nil }
        let scope = context.caller.isMaster ? "master" : "user:\(context.caller.user?.objectId ?? "")"
        return HexDigest.sha256("\(scope)\n\(id)")
    }
}
