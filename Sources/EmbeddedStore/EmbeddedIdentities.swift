import AnywallSupport
import Foundation
import GRDB
import WallDomain

/// Parse's `authData` on the embedded wall: anonymous accounts, made and converted. Facebook is
/// refused: the wall is a file with no server to check a token against the Graph API.
extension EmbeddedWall: IdentityWall {
    public func signUpAnonymously() throws -> Session {
        let user = User(objectId: RandomIdentifier.objectId(), username: RandomIdentifier.username(), name: nil, logins: [.anonymous])
        let now = clock.now()
        return try write { db in
            try db.execute(sql: "INSERT INTO user (objectId, username, createdAt) VALUES (?, ?, ?)",
                           arguments: [user.objectId, user.username, Self.millis(now)])
            let id = db.lastInsertedRowID
            try db.execute(sql: "INSERT INTO userAuth (provider, providerId, userId) VALUES ('anonymous', ?, ?)",
                           arguments: [UUID().uuidString.lowercased(), id])
            return try self.openSession(db, userId: id, user: user, now: now)
        }
    }

    public func convert(_ session: Session, username: String, password: String) throws -> Session {
        let objectId = try currentUser(session).objectId
        try updateAccount(objectId: objectId, username: username, password: password, name: nil, keepingSession: session.token)
        try write { db in
            try db.execute(sql: "DELETE FROM userAuth WHERE provider = 'anonymous' AND userId = (SELECT id FROM user WHERE objectId = ?)",
                           arguments: [objectId])
        }
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
        // Checked first: an ended session says so, whatever is linked.
        _ = try currentUser(session)
        throw AnywallError.notLinked(method: .facebook)
    }

    /// The ways into the account of row `id`: its password, and the providers it is linked to.
    static func logins(_ db: Database, userId id: Int64, hasPassword: Bool) throws -> Set<LoginMethod> {
        let providers = try String.fetchAll(db, sql: "SELECT provider FROM userAuth WHERE userId = ?", arguments: [id])
        return Set(providers.compactMap(LoginMethod.init(rawValue:))).union(hasPassword ? [.password] : [])
    }

    private var refusal: AnywallError {
        .loginMethodUnavailable(wall: description, method: .facebook, reason: "it cannot check a Facebook token offline")
    }
}
