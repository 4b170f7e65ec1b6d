/// Who leaves, changes or deletes a post on a server: the master key, which may change any post
/// (as Parse's master key passes over ACLs) and leaves a post without an author, or the holder of
/// a session token (nil: nobody signed in), who must be among the post's writers and is the author
/// of a post they leave.
public enum PostWriter: Equatable, Sendable {
    case master
    case session(String?)

    /// Whether this writer may change or delete a post with `access`, `callerId` being the
    /// objectId of its session's user (nil: none), who holds `roles`: the master key, any post; a
    /// user, a post whose ACL lets them (or a role of theirs) read and write it (one they may not read is not found, as Parse answers).
    public func mayChange(_ access: PostAccess, callerId: String?, roles: Set<String> = []) -> Bool {
        self == .master || (access.mayRead(callerId, roles: roles) && access.mayWrite(callerId, roles: roles))
    }

    /// The session token, when a user's.
    public var token: String? {
        if case .session(let token) = self { return token }
        return nil
    }
}
