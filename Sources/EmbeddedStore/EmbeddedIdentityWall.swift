import AnywallSupport
import Foundation
import GRDB
import WallDomain

/// Parse's `authData` on the embedded wall, for its own CLI: anonymous accounts, made and
/// converted. Facebook is refused: the wall is a file with no server to check a token against
/// the Graph API.
extension EmbeddedWall: IdentityWall {
    public func signUpAnonymously() throws -> Session {
        let session = try signUp(identities: [AuthIdentity(provider: LoginMethod.anonymous.rawValue, id: UUID().uuidString.lowercased())],
                                 username: nil, password: nil, name: nil)
        return Session(backend: identity, token: session.token, user: session.user.with(logins: [.anonymous]))
    }

    public func convert(_ session: Session, username: String, password: String) throws -> Session {
        let objectId = try currentUser(session).objectId
        try updateAccount(objectId: objectId, username: username, password: password, name: nil, keepingSession: session.token)
        try changeIdentities(ofUser: objectId, linking: [], unlinking: [LoginMethod.anonymous.rawValue])
        return Session(backend: identity, token: session.token, user: try currentUser(session))
    }

    public func checkFacebookAvailable() throws {
        throw refusal
    }

    public func logIn(facebook: FacebookIdentity) throws -> (session: Session, created: Bool) {
        throw refusal
    }

    public func setName(_ name: String, session: Session) throws -> Session {
        try updateAccount(objectId: try currentUser(session).objectId, username: nil, password: nil, name: .some(name), keepingSession: session.token)
        return Session(backend: identity, token: session.token, user: try currentUser(session))
    }

    public func link(_ facebook: FacebookIdentity, session: Session) throws -> Session {
        throw refusal
    }

    public func unlinkFacebook(session: Session) throws -> Session {
        // The session is checked first: an ended one says so, whatever is linked.
        guard try currentUser(session).logins.contains(.facebook) else { throw AnywallError.notLinked(method: .facebook) }
        try changeIdentities(ofUser: session.user.objectId, linking: [], unlinking: [LoginMethod.facebook.rawValue])
        return Session(backend: identity, token: session.token, user: try currentUser(session))
    }

    /// The ways into the account of row `id`: its password, and the providers it is linked to.
    static func logins(_ db: Database, userId id: Int64) throws -> Set<LoginMethod> {
        let hasPassword = try Bool.fetchOne(db, sql: "SELECT passwordHash IS NOT NULL FROM user WHERE id = ?", arguments: [id]) ?? false
        let providers = try String.fetchAll(db, sql: "SELECT provider FROM authData WHERE userId = ?", arguments: [id])
        return Set(providers.compactMap(LoginMethod.init(rawValue:))).union(hasPassword ? [.password] : [])
    }

    private var refusal: AnywallError {
        .loginMethodUnavailable(wall: description, method: .facebook, reason: "it cannot check a Facebook token offline")
    }
}
