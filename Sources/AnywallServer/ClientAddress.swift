import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// Who the client is when a proxy stands between it and the server: a request that arrives from
/// one of `trustedProxies` is from the address that proxy names (`X-Forwarded-For`, or RFC 7239's
/// `Forwarded`), read from the right, past the trusted proxies, so that what the client itself
/// wrote into the header never counts. The log, the per-address budgets and the master key's
/// address check then see the real client, not the proxy on loopback.
///
/// A request that names a client but arrives from an address not trusted to do so is marked
/// `isForwardedByUntrustedPeer` and keeps its socket's address: it may not use the master key (a proxy nobody
/// configured would otherwise pass every internet client off as loopback), and the log says once
/// that `--trusted-proxy` is missing.
struct ClientAddress: RouterMiddleware {
    typealias Context = ParseContext
    let trustedProxies: AddressList
    private let warned = WarnedOnce()

    init(trustedProxies: AddressList) {
        self.trustedProxies = trustedProxies
    }

    func handle(_ request: Request, context: ParseContext, next: (Request, ParseContext) async throws -> Response) async throws -> Response {
        guard !context.isDispatched, let named = Self.forwardedFor(request.headers) else { return try await next(request, context) }
        var context = context
        guard let peer = context.remoteAddress, !trustedProxies.isEmpty, trustedProxies.allows(peer) else {
            context.isForwardedByUntrustedPeer = true
            if !warned.flag.exchange(true, ordering: .relaxed) {
                ServerLog.event("warning", ["warning": .string("requests arrive from \(context.remoteAddress ?? "-") naming their clients "
                    + "(X-Forwarded-For or Forwarded), and it is not a --trusted-proxy: each such request counts as that address's, "
                    + "and none may use the master key")])
            }
            return try await next(request, context)
        }
        // The nearest address that is not one of ours: the client as our proxies saw it.
        context.remoteAddress = named.reversed().first { !trustedProxies.allows($0) } ?? named.first ?? peer
        return try await next(request, context)
    }

    /// The addresses a request's forwarding headers name, the client first; nil when it has none.
    /// `Forwarded` (RFC 7239) wins over `X-Forwarded-For` when both are there.
    static func forwardedFor(_ headers: HTTPFields) -> [String]? {
        let forwarded = headers[values: .forwarded]
        if !forwarded.isEmpty {
            let named = forwarded.flatMap { $0.split(separator: ",") }.compactMap { element in
                element.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                    .first { $0.lowercased().hasPrefix("for=") }
                    .map { node(String($0.dropFirst(4))) }
            }
            return named
        }
        let listed = headers[values: .xForwardedFor]
        guard !listed.isEmpty else { return nil }
        return listed.flatMap { $0.split(separator: ",") }.map { node($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// A node as `Forwarded` writes one (`"[2001:db8::1]:4711"`, `192.0.2.1:80`), as a bare address.
    private static func node(_ text: String) -> String {
        var node = Substring(text)
        if node.hasPrefix("\""), node.hasSuffix("\""), node.count >= 2 { node = node.dropFirst().dropLast() }
        if node.hasPrefix("[") {
            return String(node.dropFirst().prefix { $0 != "]" })
        }
        // One colon: an IPv4 address and its port; more: an IPv6 address without brackets.
        if node.filter({ $0 == ":" }).count == 1 { return String(node.prefix { $0 != ":" }) }
        return String(node)
    }
}

/// Whether the missing `--trusted-proxy` was logged already.
private final class WarnedOnce: Sendable {
    let flag = Atomic<Bool>(false)
}

extension HTTPField.Name {
    static let forwarded = HTTPField.Name("Forwarded")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
