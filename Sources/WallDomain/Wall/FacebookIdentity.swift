import Foundation

/// A Facebook account as Parse's `authData.facebook` carries it: the user's id in the app, the
/// access token that proves it, and when that token ends. Printing one never shows the token.
public struct FacebookIdentity: Equatable, Sendable, CustomStringConvertible {
    /// The user's id, as the Graph API's `/me` gives it for the token.
    public let id: String
    /// The token the wall checks against the Graph API: a secret.
    public let accessToken: String
    /// When the token ends (Parse's `expiration_date`).
    public let expirationDate: Date

    public init(id: String, accessToken: String, expirationDate: Date) {
        self.id = id
        self.accessToken = accessToken
        self.expirationDate = expirationDate
    }

    public var description: String { "Facebook user \(id)" }
}
