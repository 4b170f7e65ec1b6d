import AnywallSupport
import Hummingbird
import Logging
import NIOCore
import ParseWire
import WallDomain

/// What the server knows of one request: where it came from, and who is asking once the keys
/// are checked.
package struct ParseContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The client's address, for the access log, the per-address budgets and the master key's
    /// address check: the socket's, or the one a trusted proxy names (`ClientAddress`); nil for a
    /// request that came over no socket.
    var remoteAddress: String?
    /// Whether the request names a client behind a proxy (`X-Forwarded-For`, `Forwarded`) but
    /// came from an address not trusted to (`--trusted-proxy`): it may not use the master key.
    var isForwardedByUntrustedPeer = false
    /// Set by `KeyCheck` before any Parse route runs.
    var caller = Caller()
    /// When the request's body must have arrived; set from the server's `ClientLimits`.
    // Not `ClientLimits()`, whose password limits ask the system for its processor count each time.
    var bodyDeadline = ContinuousClock.now + ClientLimits.defaultBodyTimeout
    /// The connection's event loop, which keeps the body's deadline; nil for a request that came
    /// over no socket.
    let eventLoop: (any EventLoop)?
    /// Whether the server made this request from the one it received (the request a method
    /// override stands for, or a batch's sub-request): the access log has the received one.
    var isDispatched = false
    /// The bytes of results this request may still be answered with; a batch's sub-requests share it.
    var answerBudget = AnswerBudget()

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
        eventLoop = source.channel.eventLoop
    }

    /// A context for a request that came over no socket: the in-process fuzz target's.
    package init(remoteAddress: String?, logger: Logger) {
        coreContext = .init(source: DetachedSource(logger: logger))
        self.remoteAddress = remoteAddress
        eventLoop = nil
    }
}

/// Where a request without a channel comes from: only a logger.
private struct DetachedSource: RequestContextSource {
    let logger: Logger
}

/// Who is asking: the master key, and/or a session token and the user it belongs to.
struct Caller: Sendable {
    var isMaster = false
    var sessionToken: String?
    /// The session's user, once `KeyCheck` found the session.
    var user: StoredUser?

    /// The posts the caller may read.
    var reader: PostReader {
        isMaster ? .master : .user(user?.objectId)
    }

    /// Who changes or deletes posts in this request: the master key may change any.
    var writer: PostWriter {
        isMaster ? .master : .session(sessionToken)
    }
}
