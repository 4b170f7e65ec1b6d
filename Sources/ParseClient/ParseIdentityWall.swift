import Foundation
import ParseWire
import WallDomain

/// Parse's `authData` on the REST API: anonymous users, and Facebook's log-in, link and unlink,
/// as the REST guide's "Linking Users" and the Parse SDKs send them.
extension ParseWall: IdentityWall {
    public func signUpAnonymously() throws -> Session {
        let created = try call {
            try client.send(.post, "users", body: ParseAuthSignUp(authData: ["anonymous": ParseAuthData.anonymous(UUID().uuidString.lowercased())]),
                            revocableSession: true, as: ParseAuthUser.self)
        }
        guard let token = created.sessionToken, let username = created.username else {
            throw AnywallError.noSessionGiven(wall: client.serverName)
        }
        return Session(backend: identity, token: token, user: User(objectId: created.objectId, username: username, name: nil, logins: [.anonymous]))
    }

    public func convert(_ session: Session, username: String, password: String) throws -> Session {
        let username = try Username.validated(username)
        let password = try Password.validated(password)
        // The Parse SDKs strip the anonymous id when an anonymous user signs up.
        let change = ParseUserChange(username: username, password: password, authData: ["anonymous": .null])
        let updated = try update(session, change, sendsPassword: true) { code, _ in
            code == ParseErrorCode.usernameTaken ? .usernameTaken(username) : nil
        }
        // Parse ends the user's sessions when the password changes, and answers with a new one.
        return Session(backend: identity, token: updated.sessionToken ?? session.token,
                       user: session.user.with(username: username, logins: session.user.logins.subtracting([.anonymous]).union([.password])))
    }

    /// A Parse Server answers for itself: its Facebook adapter's configuration is its own.
    public func checkFacebookAvailable() throws {}

    public func logIn(facebook: FacebookIdentity) throws -> (session: Session, created: Bool) {
        let (record, status) = try call {
            try client.exchange(.post, "users", body: ParseAuthSignUp(authData: ["facebook": ParseAuthData.facebook(facebook)]),
                                revocableSession: true, sendsPassword: true, as: ParseAuthUser.self)
        } refused: { code, message in self.identityRefusal(code, message) }
        guard let token = record.sessionToken, let username = record.username else {
            throw AnywallError.noSessionGiven(wall: client.serverName)
        }
        let created = status == 201
        // A user logged in may also have a password: Parse does not say, so only Facebook is known.
        let logins: Set<LoginMethod> = created ? [.facebook] : record.logins(hasPassword: false).union([.facebook])
        let name = record.name.flatMap { $0.isEmpty ? nil : $0 }
        return (Session(backend: identity, token: token, user: User(objectId: record.objectId, username: username, name: name, logins: logins)), created)
    }

    public func setName(_ name: String, session: Session) throws -> Session {
        guard let name = try DisplayName.validated(name) else { return session }
        _ = try update(session, ParseUserChange(name: name))
        return Session(backend: identity, token: session.token, user: session.user.with(name: .some(name)))
    }

    public func link(_ facebook: FacebookIdentity, session: Session) throws -> Session {
        var authData = ["facebook": ParseAuthData.facebook(facebook)]
        // As the Parse SDKs do: an anonymous user linked to another login is no longer anonymous.
        if session.user.logins.contains(.anonymous) { authData["anonymous"] = .null }
        _ = try update(session, ParseUserChange(authData: authData), sendsPassword: true) { code, message in
            self.identityRefusal(code, message)
        }
        return Session(backend: identity, token: session.token,
                       user: session.user.with(logins: session.user.logins.subtracting([.anonymous]).union([.facebook])))
    }

    public func unlinkFacebook(session: Session) throws -> Session {
        // Parse Server itself lets the last login go, leaving an account nobody can reach again:
        // refused here unless another way in is known (anywall-server refuses it too).
        let current = try call { try client.send(.get, "users/me", sessionToken: session.token, as: ParseAuthUser.self) }
        let known = current.logins(hasPassword: session.user.logins.contains(.password))
        guard known.contains(.facebook) else { throw AnywallError.notLinked(method: .facebook) }
        guard !known.subtracting([.facebook]).isEmpty else {
            throw AnywallError.lastWayToLogIn(provider: LoginMethod.facebook.rawValue)
        }
        _ = try update(session, ParseUserChange(authData: ["facebook": .null])) { code, _ in
            // anywall-server's own refusal of the last way in.
            code == ParseErrorCode.operationForbidden ? .lastWayToLogIn(provider: LoginMethod.facebook.rawValue) : nil
        }
        return Session(backend: identity, token: session.token, user: session.user.with(logins: known.subtracting([.facebook])))
    }

    /// `PUT /users/:id` as the session's user.
    private func update(_ session: Session, _ change: ParseUserChange, sendsPassword: Bool = false,
                        refused special: (Int?, String) -> AnywallError? = { _, _ in nil }) throws -> ParseUserUpdated {
        try call({
            try client.send(.put, "users/\(session.user.objectId)", body: change, sessionToken: session.token,
                            sendsPassword: sendsPassword, as: ParseUserUpdated.self)
        }, refused: special)
    }

    /// What Parse's `authData` refusals mean: 101 Facebook's check failed, 208 linked elsewhere,
    /// 252 a provider the server is not set up for, 141 the server could not reach Facebook.
    private func identityRefusal(_ code: Int?, _ message: String) -> AnywallError? {
        switch code {
        case ParseErrorCode.objectNotFound: return .facebookRefused(message)
        case ParseErrorCode.accountAlreadyLinked: return .identityTaken(provider: LoginMethod.facebook.rawValue)
        case ParseErrorCode.unsupportedService: return .loginMethodUnavailable(wall: client.serverName, method: .facebook, reason: message)
        case ParseErrorCode.scriptFailed: return .backendUnreachable("\(client.serverName) could not check the token with Facebook: \(message)")
        default: return nil
        }
    }
}
