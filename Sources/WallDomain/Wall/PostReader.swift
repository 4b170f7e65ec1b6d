/// Who a query reads for, which decides the posts whose ACL it may see: the master key sees
/// every post; a user, posts everyone may read and those whose ACL names them; nobody signed in,
/// posts everyone may read.
public enum PostReader: Equatable, Sendable {
    case master
    /// A user's objectId, or nil for nobody signed in.
    case user(String?)

    /// The condition a post must meet to be read: none for the master key.
    public var condition: RecordCondition {
        switch self {
        case .master: return .always
        case .user(let userId): return .readable(by: userId)
        }
    }
}
