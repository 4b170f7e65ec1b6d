import NIOCore
import Synchronization

/// The connections open from each address (each IPv6 /64: `AddressList.client`), so that no one address holds every connection the
/// server takes (`ClientLimits.maxConnections`): keep-alive connections that send a request just
/// often enough never time out, and 4,096 of them from one machine would leave none for anyone else.
/// A connection past an address's share is closed as soon as it opens. Trusted proxies carry many
/// clients' connections and have no share.
final class ConnectionsPerAddress: Sendable {
    let limit: Int
    let trustedProxies: AddressList
    private let open = Mutex<[String: Int]>([:])

    init(limit: Int, trustedProxies: AddressList) {
        self.limit = limit
        self.trustedProxies = trustedProxies
    }

    /// A handler for one new connection, which counts it while it is open.
    func handler() -> any RemovableChannelHandler {
        CountedConnection(counts: self)
    }

    /// Counts a connection from `address`; false when the address has its share open already.
    func admit(_ address: String) -> Bool {
        guard !trustedProxies.allows(address) else { return true }
        let client = AddressList.client(address)
        return open.withLock { open in
            let count = open[client, default: 0]
            guard count < limit else { return false }
            open[client] = count + 1
            return true
        }
    }

    func release(_ address: String) {
        guard !trustedProxies.allows(address) else { return }
        let client = AddressList.client(address)
        open.withLock { open in
            let count = open[client, default: 1] - 1
            open[client] = count > 0 ? count : nil
        }
    }
}

/// One connection's place in its address's count, taken when it opens and given back when it closes.
private final class CountedConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let counts: ConnectionsPerAddress
    private var counted: String?

    init(counts: ConnectionsPerAddress) {
        self.counts = counts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let address = context.channel.remoteAddress?.ipAddress else { return }
        if counts.admit(address) {
            counted = address
        } else {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let counted { counts.release(counted) }
        counted = nil
    }
}
