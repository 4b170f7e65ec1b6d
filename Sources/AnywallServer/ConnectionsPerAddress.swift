import NIOCore
import Synchronization

/// The connections open from each address (each IPv6 /64: `AddressList.client`), so that no one address holds every connection the
/// server takes (`ClientLimits.maxConnections`): keep-alive connections that send a request just
/// often enough never time out, and 4,096 of them from one machine would leave none for anyone else.
/// A connection past an address's share is closed as soon as it opens (`ConnectionGuard` counts
/// each, LiveQuery's sockets too). Trusted proxies carry many clients' connections and have no share.
final class ConnectionsPerAddress: Sendable {
    let limit: Int
    let trustedProxies: AddressList
    private let open = Mutex<[String: Int]>([:])

    init(limit: Int, trustedProxies: AddressList) {
        self.limit = limit
        self.trustedProxies = trustedProxies
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
