import ParseWire
import WallDomain

/// The `authData` providers this server takes, as Parse Server's auth adapters: `anonymous`
/// (any id: the client's own random one) and `facebook` (`FacebookAuth`). Any other is
/// Parse's 252.
package struct AuthProviders: Sendable {
    /// Facebook's check; with no app ids every Facebook log-in is refused.
    package var facebook: FacebookAuth

    package init(facebook: FacebookAuth = FacebookAuth(appIds: [], appSecret: nil)) {
        self.facebook = facebook
    }

    /// The identity each of `entries` stands for, once its provider vouches for it, checked one
    /// after the other in Parse Server's order (sorted by provider), so a failure names the first.
    func verify(_ entries: [(name: String, entry: AuthDataBody.Entry)]) async throws -> [AuthIdentity] {
        var identities: [AuthIdentity] = []
        for (name, entry) in entries {
            switch name {
            case "anonymous": identities.append(AuthIdentity(provider: name, id: entry.id))
            case "facebook": identities.append(try await facebook.verify(entry))
            default: throw AuthDataBody.unsupported
            }
        }
        return identities
    }

    /// Whether `name` is a provider this server takes.
    static func offers(_ name: String) -> Bool {
        name == "anonymous" || name == "facebook"
    }
}
