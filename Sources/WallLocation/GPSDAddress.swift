import AnywallSupport
import WallDomain
/// Where gpsd listens, written as gpsd's own clients take it: `HOST[:PORT]`, `[IPv6]:PORT`.
public struct GPSDAddress: Equatable, Sendable, CustomStringConvertible {
    public static let defaultHost = "localhost"
    public static let defaultPort = 2947

    public let host: String
    public let port: Int

    public init(host: String = defaultHost, port: Int = defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST`, `HOST:PORT`, `[::1]:PORT` or `[::1]`; an empty text is localhost:2947.
    public init(parsing text: String) throws {
        let bad = AnywallError.inputRejected("bad gpsd address '\(text)': expected HOST[:PORT], such as localhost:2947 or [::1]:2947")
        var host = Substring(text)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw bad }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw bad }
                port = rest.dropFirst()
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.contains(where: { $0 == "/" || $0 == " " || $0 == "[" || $0 == "]" }) else { throw bad }
        var number = Self.defaultPort
        if let port {
            guard let value = Int(port), (1...65_535).contains(value) else { throw bad }
            number = value
        }
        self.init(host: host.isEmpty ? Self.defaultHost : String(host), port: number)
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
