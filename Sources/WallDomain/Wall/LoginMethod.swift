/// A way into an account: a username and password, or an identity Parse keeps in `authData`.
public enum LoginMethod: String, Codable, Sendable, CaseIterable {
    /// A username and a password.
    case password
    /// Parse's anonymous provider: a random id, kept only in the session of the device that made it.
    case anonymous
    /// A Facebook account (Parse's `authData.facebook`).
    case facebook
}

extension LoginMethod {
    /// The method's name in messages.
    public var displayName: String {
        switch self {
        case .password: return "a password"
        case .anonymous: return "an anonymous id"
        case .facebook: return "Facebook"
        }
    }
}
