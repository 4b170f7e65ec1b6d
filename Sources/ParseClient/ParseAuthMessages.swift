import Foundation
import ParseWire
import WallDomain

// The bodies of Parse's `authData` requests (the REST guide's "Linking Users") and the user they
// answer with, as far as anywall reads it.

/// `authData` entries: a provider's data links it, `.null` unlinks it.
enum ParseAuthData {
    /// `{"id": ..., "access_token": ..., "expiration_date": ...}`, as the Parse SDKs send Facebook's.
    static func facebook(_ identity: FacebookIdentity) -> JSONValue {
        .object(["id": .string(identity.id), "access_token": .string(identity.accessToken),
                 "expiration_date": .string(ParseDate.string(from: identity.expirationDate))])
    }

    /// `{"id": ...}`: the anonymous provider's random id.
    static func anonymous(_ id: String) -> JSONValue {
        .object(["id": .string(id)])
    }
}

/// A sign-up (or log-in) with `authData`, public read as every anywall account.
struct ParseAuthSignUp: Encodable {
    let authData: [String: JSONValue]
    let ACL = ParseACL.publicRead(writer: nil)
}

/// A change to the user: `authData` entries, a username and password, a name; absent keys are not sent.
struct ParseUserChange: Encodable {
    var username: String?
    var password: String?
    var name: String?
    var authData: [String: JSONValue]?
}

/// The user `POST /users` with `authData` answers with: on 201 a new user (Parse makes up its
/// username), on 200 the existing user with its `authData` (Parse shows a user their own).
struct ParseAuthUser: Decodable {
    let objectId: String
    let username: String?
    let name: String?
    let sessionToken: String?
    let authData: [String: JSONValue]?

    /// The login methods `authData` names (a null entry is none); `password` when `hasPassword`.
    func logins(hasPassword: Bool) -> Set<LoginMethod> {
        var found = Set((authData ?? [:]).compactMap { $0.value == .null ? nil : LoginMethod(rawValue: $0.key) })
        found.remove(.password)
        if hasPassword { found.insert(.password) }
        return found
    }
}

/// The answer to `PUT /users/:id`: Parse sends a new session token when the password changed
/// (and has ended the user's other sessions, the one that sent it included).
struct ParseUserUpdated: Decodable {
    let sessionToken: String?
}
