/// Who leaves, changes or deletes a post on a server: the master key, which may change any post
/// (as Parse's master key passes over ACLs) and leaves a post without an author, or the holder of
/// a session token (nil: nobody signed in), who must be among the post's writers and is the author
/// of a post they leave.
public enum PostWriter: Equatable, Sendable {
    case master
    case session(String?)

    /// The session token, when a user's.
    public var token: String? {
        if case .session(let token) = self { return token }
        return nil
    }
}
