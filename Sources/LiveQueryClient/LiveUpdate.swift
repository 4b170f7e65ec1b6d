import WallDomain

/// What a subscription tells its owner, in the order the server said it, with nothing doubled.
public enum LiveUpdate: Sendable, Equatable {
    /// The whole set of current matches (anywall-server's snapshot): what was held before is replaced.
    case snapshot([JSONValue])
    /// Subscribed where no snapshot comes (a stock Parse Server), or again after a gap nothing can
    /// replay: the owner reads the current matches itself (a REST query) and diffs them.
    case listNeeded
    /// An object that matches now: created, entered, or changed.
    case matches(JSONValue)
    /// The object that no longer matches: it left the query, or was deleted.
    case leaves(objectId: String)
    /// The socket dropped: the subscription reconnects with backoff and resumes.
    case interrupted(String)
    /// Back after an interruption, resumed where it was.
    case resumed
    /// LiveQuery cannot be had: never reached, or refused for good. The subscription has stopped.
    case unavailable(String)
}
