import AnywallSupport
import Hummingbird

/// What one client may take of the server, so that a slow or greedy client never holds up the
/// others: connections that send nothing are closed, bodies must arrive in time, and the number
/// of open connections is capped (more wait in the listen queue until one closes).
package struct ClientLimits: Sendable {
    /// A connection with no request under way for this long is closed. Its timer restarts only
    /// when a whole request head (or a piece of a body) arrives, so this also bounds the time a
    /// client may take to send its headers.
    package var idleTimeout: Duration
    /// The most time a request's body may take to arrive, from its head.
    package var bodyTimeout: Duration
    /// The most connections open at once.
    package var maxConnections: Int
    /// The most connections open at once from one address (a trusted proxy's excepted).
    package var maxConnectionsPerAddress: Int
    /// Sign-up and log-in attempts per address and per username, and password checks at once.
    package var passwords = PasswordLimits()

    /// The default `bodyTimeout`: a body must arrive within it unless the server says otherwise.
    package static let defaultBodyTimeout = Duration.seconds(30)

    package init(idleTimeout: Duration = .seconds(30), bodyTimeout: Duration = defaultBodyTimeout, maxConnections: Int = 4096,
                 maxConnectionsPerAddress: Int = 64, passwords: PasswordLimits = PasswordLimits()) {
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.passwords = passwords
    }

    /// These limits with the connection cap lowered, when it must be, to what the process's
    /// descriptor limit (raised as far as the system allows) can hold, with a warning in the log.
    package func fittedToDescriptorLimit() -> ClientLimits {
        let descriptors = DescriptorLimit.raiseToMaximum()
        // Room for the wall's files, the listening socket and the log.
        let fitting = max(1, descriptors - 64)
        guard maxConnections > fitting else { return self }
        ServerLog.event("warning", ["warning": .string("--max-connections lowered to \(fitting): "
            + "the process may open only \(descriptors) descriptors (ulimit -n)")])
        var fitted = self
        fitted.maxConnections = fitting
        return fitted
    }

    /// The connections waiting to be accepted while the cap is reached.
    var listenBacklog: Int { max(256, min(maxConnections, 4096)) }
}

/// Sets each request's body deadline from the server's `ClientLimits`.
struct BodyDeadline: RouterMiddleware {
    typealias Context = ParseContext
    let timeout: Duration

    func handle(_ request: Request, context: ParseContext, next: (Request, ParseContext) async throws -> Response) async throws -> Response {
        var context = context
        context.bodyDeadline = .now + timeout
        return try await next(request, context)
    }
}
