/// How long a client waits: to connect, and for a whole exchange.
public struct HTTPTimeouts: Equatable, Sendable {
    /// Time to open the connection (TCP and TLS).
    public var connect: Duration
    /// Time for the whole exchange, connecting included.
    public var total: Duration

    public init(connect: Duration, total: Duration) {
        self.connect = min(connect, total)
        self.total = total
    }

    /// A server on the other side of a slow mobile link still answers a small query in this time.
    public static let standard = HTTPTimeouts(connect: .seconds(5), total: .seconds(15))

    /// The same total, with the connect time capped by it.
    public static func total(_ total: Duration) -> HTTPTimeouts {
        HTTPTimeouts(connect: standard.connect, total: total)
    }
}
