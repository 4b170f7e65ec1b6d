import Foundation
import WallDomain

/// Where a Parse LiveQuery server listens: a `ws://` or `wss://` URL.
///
/// anywall-server serves LiveQuery beside its REST API, on the same port and mount path, so its
/// address follows from the server's URL; a Parse Server's LiveQuery server may be anywhere, and
/// is named (`settings set live-query-url`, `PARSE_LIVE_QUERY_URL`).
public struct LiveQueryAddress: Equatable, Sendable {
    /// The URL, without a trailing slash.
    public let url: String
    /// Whether the user named it, rather than its being derived from the REST URL.
    public let isNamed: Bool

    /// Checks a named address: ws or wss, with a host, no query or fragment.
    public init(named text: String) throws {
        var url = text.trimmingCharacters(in: .whitespaces)
        while url.hasSuffix("/") { url.removeLast() }
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
              let host = parsed.host, !host.isEmpty, parsed.query == nil, parsed.fragment == nil else {
            throw AnywallError.inputRejected("bad LiveQuery URL '\(text)': expected ws:// or wss:// with a host, e.g. wss://example.com/parse")
        }
        self.url = url
        isNamed = true
    }

    /// anywall-server's address for `server`: its URL with `ws` for `http` and `wss` for `https`.
    public init(servedBeside server: ParseServer) {
        let secure = server.url.lowercased().hasPrefix("https:")
        url = (secure ? "wss" : "ws") + server.url.drop(while: { $0 != ":" })
        isNamed = false
    }
}
