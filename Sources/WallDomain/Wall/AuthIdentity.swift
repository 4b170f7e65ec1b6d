import Foundation

/// One way an account logs in besides its password, as Parse keeps it in `_User.authData`: a
/// provider (`anonymous`, `facebook`) and the account's id there, with the provider's other
/// fields as the client sent them, minus its access token (a copy of the wall gives nobody a
/// token to call the provider with). No two accounts have the same provider and id.
public struct AuthIdentity: Hashable, Sendable {
    public let provider: String
    public let id: String
    /// The provider's fields besides `id` that are kept (`expiration_date` for Facebook).
    public let fields: [String: JSONValue]

    public init(provider: String, id: String, fields: [String: JSONValue] = [:]) {
        self.provider = provider
        self.id = id
        self.fields = fields
    }

    /// An identity as a store keeps it: `stored` is `storedFields`' JSON (nothing when it is not
    /// an object, which no store writes).
    public init(provider: String, id: String, storedFields stored: String) {
        self.init(provider: provider, id: id, fields: (try? JSONDecoder().decode([String: JSONValue].self, from: Data(stored.utf8))) ?? [:])
    }

    /// The kept fields as a store writes them: a JSON object.
    public var storedFields: String {
        String(decoding: (try? JSONEncoder().encode(fields)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The fields a client sent that are never kept: the provider's credentials.
    public static let credentialFields: Set<String> = ["access_token", "token", "auth_token", "auth_token_secret", "code"]

    /// The identity as `authData.<provider>` holds it: `id` and the kept fields.
    public var json: JSONValue {
        .object(fields.merging(["id": .string(id)]) { $1 })
    }
}
