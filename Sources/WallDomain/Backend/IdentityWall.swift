/// A wall whose accounts may also be reached through Parse's `authData`: anonymous accounts,
/// and Facebook accounts logged in, linked and unlinked, as the Parse guide has them. The sessions
/// it returns name the account's login methods as far as the wall has said them.
public protocol IdentityWall: WallBackend {
    /// Refuses (`loginMethodUnavailable`) when the wall cannot take Facebook at all, so a command
    /// can say so before the user goes through Facebook's login.
    func checkFacebookAvailable() throws
    /// Creates an account with no username or password (Parse's anonymous user, a random id) and
    /// opens a session for it.
    func signUpAnonymously() throws -> Session
    /// Gives the anonymous account of `session` a username and password, keeping its objectId and
    /// everything it wrote; the session to keep from now on.
    func convert(_ session: Session, username: String, password: String) throws -> Session
    /// Logs in with a Facebook account, creating the wall's account the first time; whether it was created.
    func logIn(facebook: FacebookIdentity) throws -> (session: Session, created: Bool)
    /// Sets the display name of the session's user; the session with it.
    func setName(_ name: String, session: Session) throws -> Session
    /// Links a Facebook account to the session's user (an anonymous one then stops being anonymous).
    func link(_ facebook: FacebookIdentity, session: Session) throws -> Session
    /// Unlinks Facebook from the session's user; refused (`lastWayToLogIn`) when it is the last way in.
    func unlinkFacebook(session: Session) throws -> Session
}
