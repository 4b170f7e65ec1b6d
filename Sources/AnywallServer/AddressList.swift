import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A list of client addresses and networks: those the master key is accepted from (Parse Server's
/// `masterKeyIps`, loopback by default as in Parse Server 6 and later: a leaked key is no use from
/// outside the machine unless the owner widens the list), and the proxies trusted to say who their
/// clients are (`--trusted-proxy`).
package struct AddressList: Sendable {
    /// An address, or a network as `address/prefix-length`.
    private struct Network: Sendable {
        let bytes: [UInt8]
        let prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for (mine, theirs) in zip(bytes, address) where remaining > 0 {
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                guard mine & mask == theirs & mask else { return false }
                remaining -= 8
            }
            return true
        }
    }

    private let networks: [Network]

    /// Parse Server's default: 127.0.0.1 and ::1.
    package static let loopback = AddressList(networks: [Network(bytes: [127, 0, 0, 1], prefixLength: 32),
                                                                 Network(bytes: Array(repeating: 0, count: 15) + [1], prefixLength: 128)])

    private init(networks: [Network]) {
        self.networks = networks
    }

    /// Reads a comma-separated list of IPv4 and IPv6 addresses and networks (`10.0.0.0/8`,
    /// `::/0`); throws the entry that is neither.
    package init(parsing list: String) throws(InvalidAddressList) {
        var networks: [Network] = []
        for entry in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = Self.bytes(String(parts[0])) else { throw InvalidAddressList(entry: entry) }
            let longest = bytes.count * 8
            guard let prefixLength = parts.count == 2 ? Int(parts[1]) : longest, (0...longest).contains(prefixLength) else {
                throw InvalidAddressList(entry: entry)
            }
            networks.append(Network(bytes: bytes, prefixLength: prefixLength))
        }
        guard !networks.isEmpty else { throw InvalidAddressList(entry: list) }
        self.networks = networks
    }

    /// No address at all.
    package static let none = AddressList(networks: [])

    /// Whether the list holds `address`. A request that came over no socket (`nil`: handled in
    /// process) is the server's own code, which every list holds.
    package func allows(_ address: String?) -> Bool {
        guard let address else { return true }
        guard let bytes = Self.bytes(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// Whether the list holds no address.
    package var isEmpty: Bool { networks.isEmpty }

    /// What one client is counted as in the per-address limits: an IPv4 address, or the /64 network
    /// of an IPv6 one (a single host is given a /64 and may speak from any address in it: counted
    /// by address, it would have 2^64 budgets).
    package static func client(_ address: String) -> String {
        guard let bytes = bytes(address), bytes.count == 16 else { return address }
        return bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// An address's bytes (inet_pton's reading); an IPv4 address mapped into IPv6
    /// (`::ffff:127.0.0.1`, how a dual-stack socket sees IPv4 clients) as its four IPv4 bytes.
    private static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        return bytes.starts(with: mappedPrefix) ? Array(bytes[12...]) : bytes
    }
}

/// An entry of a list that is no address or network.
package struct InvalidAddressList: Error, Sendable {
    package let entry: String
}
