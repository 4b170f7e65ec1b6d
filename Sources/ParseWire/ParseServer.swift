import Foundation
import WallDomain

/// Where a Parse Server is and the keys a client presents to it (not the master key, which is
/// asked for only by the commands that need it).
public struct ParseServer: Equatable, Sendable {
    /// The server's URL with its mount path and no trailing slash: `https://example.com/parse`.
    public let url: String
    /// `X-Parse-Application-Id`.
    public let applicationId: String
    /// `X-Parse-REST-API-Key`, when the server asks for one.
    public let restKey: String?

    /// Checks the URL (http or https, with a host) and the application id.
    public init(url: String, applicationId: String?, restKey: String?) throws {
        var text = url.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        guard let parsed = URLComponents(string: text), let scheme = parsed.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty,
              parsed.query == nil, parsed.fragment == nil else {
            throw AnywallError.inputRejected(
                "bad server URL '\(url)': expected http:// or https:// with a host and the mount path, e.g. https://example.com/parse")
        }
        guard let applicationId, !applicationId.isEmpty else {
            throw AnywallError.inputRejected(
                "the Parse Server at \(text) needs an application id: 'anywall settings set app-id ID' or PARSE_APPLICATION_ID")
        }
        self.url = text
        self.applicationId = applicationId
        self.restKey = restKey.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether what is sent to the server crosses a network unencrypted: `http://` to a host other
    /// than this machine's loopback. A password, a session token or the master key is then never
    /// sent (anyone on the way could take it).
    public var sendsInClear: Bool { Self.sendsInClear(to: url) }

    /// Whether a request to `url` crosses a network unencrypted (`sendsInClear`), for any server
    /// anywall sends a secret to (the Graph API too).
    public static func sendsInClear(to url: String) -> Bool {
        guard let parsed = URLComponents(string: url), parsed.scheme?.lowercased() == "http", let host = parsed.host?.lowercased() else {
            return false
        }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        return !(bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || bare.hasPrefix("127."))
    }

    /// The URL of `path` (such as `classes/Posts`) with `query` percent-encoded.
    public func endpoint(_ path: String, query: [(name: String, value: String)] = []) -> String {
        guard !query.isEmpty else { return "\(url)/\(path)" }
        // Only RFC 3986's unreserved characters stay as they are: JSON's braces, quotes and `$` are encoded.
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        let pairs = query.map { "\($0.name)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.value)" }
        return "\(url)/\(path)?\(pairs.joined(separator: "&"))"
    }
}
