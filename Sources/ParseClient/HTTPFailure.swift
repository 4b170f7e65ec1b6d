import AnywallSupport
import ParseWire
import WallDomain
/// Why an HTTP exchange did not produce a whole response.
public enum HTTPFailure: Error, Equatable, Sendable {
    /// No connection was made (refused, unknown host, no route, TLS handshake refused): the
    /// request never reached the server.
    case cannotConnect(String)
    /// No whole answer within the time allowed.
    case timedOut(Duration)
    /// The connection broke after the request was sent: it may have been acted on.
    case connectionLost(String)
    /// The answer was larger than the client accepts.
    case responseTooLarge(Int)

    /// Whether the server may have received and acted on the request.
    public var mayHaveArrived: Bool {
        if case .cannotConnect = self { return false }
        return true
    }

    /// Whether trying again soon may work: not after the whole time allowed has run out.
    public var isTransient: Bool {
        switch self {
        case .cannotConnect, .connectionLost: return true
        case .timedOut, .responseTooLarge: return false
        }
    }

    /// A short phrase for messages.
    public var reason: String {
        switch self {
        case .cannotConnect(let why), .connectionLost(let why): return why
        case .timedOut(let limit): return "no answer within \(limit.readable)"
        case .responseTooLarge(let limit): return "the answer is larger than \(limit / 1_048_576) MiB"
        }
    }
}
