import Foundation
import Hummingbird
import ParseWire
import WallDomain

/// Accounts by `authData`, as Parse Server's RestWrite handles it:
/// - `POST /users` with authData logs in the account that has one of its identities (200, the
///   user with its session), or signs a new one up (201) when none has;
/// - `PUT /users/:id` with authData links each identity sent and unlinks each provider sent as null
///   (`UserRoutes` writes them with the rest of the change);
/// - an identity another account has is 208, checked with its provider first, as Parse Server
///   does, so the answer tells nothing about a token that is not valid.
/// The access token a client sends is read by its provider's check only: never kept, logged or answered.
struct AuthDataAccounts {
    let wall: any WallStore
    let providers: AuthProviders

    /// `POST /users` with `authData`: the log-in or sign-up it stands for. `username`, `password`
    /// and `name` may come with it (a new account then has them; one logging in keeps its own).
    func signUpOrLogIn(_ authData: AuthDataBody, username: String?, password: String?, name: String?,
                       mount: String, request: Request) async throws -> Response {
        let entries = authData.linking
        // Nothing to log in with: only nulls, as Parse Server answers authData it cannot handle.
        guard !entries.isEmpty, entries.allSatisfy({ AuthProviders.offers($0.name) }) else { throw AuthDataBody.unsupported }
        let claimed = entries.map { AuthIdentity(provider: $0.name, id: $0.entry.id) }
        let owners = try await wall.accounts(with: claimed)
        let identities = try await providers.verify(entries)
        guard owners.count <= 1 else { throw ParseRefusal(AnywallError.identityTaken(provider: claimed[0].provider))! }
        if let owner = owners.first {
            let (session, user) = try await wall.logIn(objectId: owner.objectId, identities: identities)
            return ParseAnswer.json(try await Self.ownView(of: user, sessionToken: session.token, on: wall))
        }
        let (session, user) = try await wall.signUp(identities: identities, username: username, password: password, name: name)
        var answer: [String: JSONValue] = ["objectId": .string(user.objectId), "createdAt": ParseRendering.date(user.createdAt),
                                           "sessionToken": .string(session.token)]
        // Parse Server names the username it drew, and only that one.
        if username == nil { answer["username"] = .string(user.username) }
        return ParseAnswer.created(answer, path: "\(mount)/users/\(user.objectId)", request: request)
    }

    /// The identities `authData` links to the account `objectId` (`PUT /users/:id`, by the
    /// account itself or the master key), once their providers vouch for them and no other
    /// account has one; the caller then writes them with the rest of the change.
    func verified(_ authData: AuthDataBody, forUser objectId: String) async throws -> [AuthIdentity] {
        let entries = authData.linking
        guard entries.allSatisfy({ AuthProviders.offers($0.name) }) else { throw AuthDataBody.unsupported }
        let owners = try await wall.accounts(with: entries.map { AuthIdentity(provider: $0.name, id: $0.entry.id) })
        let identities = try await providers.verify(entries)
        if owners.contains(where: { $0.objectId != objectId }) {
            throw ParseRefusal(AnywallError.identityTaken(provider: identities.first?.provider ?? ""))!
        }
        return identities
    }

    /// The account as its owner sees it (a log-in's answer, `/users/me`): with its own authData,
    /// as Parse Server returns it to the owner alone.
    static func ownView(of user: StoredUser, sessionToken: String?, on wall: any WallStore) async throws -> JSONValue {
        guard case .object(var fields) = ParseRendering.user(user, sessionToken: sessionToken).json else { return .null }
        let identities = try await wall.identities(ofUser: user.objectId)
        if !identities.isEmpty {
            fields["authData"] = .object(Dictionary(identities.map { ($0.provider, $0.json) }) { $1 })
        }
        return .object(fields)
    }
}
