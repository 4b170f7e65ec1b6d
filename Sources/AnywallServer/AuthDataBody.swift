import ParseWire
import WallDomain

/// A request's `authData` (on `POST /users` and `PUT /users/:id`) as Parse Server reads it: an
/// object of providers, each an object with an `id` string, or null to unlink the provider. The
/// checks are Parse Server's, in its order: no provider with an id (nor a null) is 252, as it
/// answers a body whose authData it cannot handle.
struct AuthDataBody {
    /// What a client sent for one provider.
    struct Entry {
        let id: String
        /// The provider's other fields, the access token among them: only its check reads them.
        let fields: [String: JSONValue]
    }

    /// Each provider named, in Parse Server's order (sorted): its entry, or nil to unlink it.
    let providers: [(name: String, entry: Entry?)]

    /// The longest `id` taken: far beyond any provider's (Facebook's are digits), short enough
    /// that no client fills the wall with one.
    static let maxIdLength = 256

    /// The authData of `body`, nil when the body has none (or an empty object, which Parse Server
    /// ignores too).
    init?(_ body: [String: JSONValue]) throws {
        guard let value = body["authData"] else { return nil }
        // A null or non-object authData: nothing Parse Server can handle.
        guard case .object(let object) = value else { throw Self.unsupported }
        if object.isEmpty { return nil }
        var providers: [(name: String, entry: Entry?)] = []
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .null:
                providers.append((name, nil))
            case .object(let fields):
                // Parse Server takes any truthy id; this server keeps ids as strings, as every provider gives them.
                guard case .string(let id)? = fields["id"], !id.isEmpty else { continue }
                guard id.count <= Self.maxIdLength, !id.unicodeScalars.contains(where: \.properties.isNoncharacterCodePoint),
                      !id.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                    throw ParseRefusal(ParseErrorCode.validationFailed, "authData's id must be at most \(Self.maxIdLength) characters, with no control characters")
                }
                providers.append((name, Entry(id: id, fields: fields)))
            default:
                continue
            }
        }
        guard !providers.isEmpty else { throw Self.unsupported }
        self.providers = providers
    }

    /// The providers sent with an entry, to link or log in with.
    var linking: [(name: String, entry: Entry)] { providers.compactMap { provider in provider.entry.map { (provider.name, $0) } } }
    /// The providers sent as null, to unlink.
    var unlinking: Set<String> { Set(providers.filter { $0.entry == nil }.map(\.name)) }

    /// Parse Server's answer to authData it cannot handle, or to a provider it does not offer.
    static let unsupported = ParseRefusal(ParseErrorCode.unsupportedService, "This authentication method is unsupported.")
}
