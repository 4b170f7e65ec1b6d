import Foundation

/// One line of a user's activity feed: what happened to their posts and to the threads they
/// replied in.
public struct ActivityEntry: Equatable, Sendable {
    public enum Kind: String, Sendable, Codable {
        /// Someone replied to the user's post, or in a thread the user replied in.
        case reply
        /// Votes on the user's post, gathered: `up` and `down` count them, `time` is the latest.
        case votes
        /// The user's post was removed.
        case removed
        /// A moderator put the user's removed post back.
        case restored
    }

    public let kind: Kind
    public let time: Date
    /// The user's post, or the thread's post for a reply.
    public let post: Post
    /// The reply, for `reply`.
    public let reply: Post?
    /// The votes up and down, for `votes`.
    public let up: Int
    public let down: Int

    public init(kind: Kind, time: Date, post: Post, reply: Post? = nil, up: Int = 0, down: Int = 0) {
        self.kind = kind
        self.time = time
        self.post = post
        self.reply = reply
        self.up = up
        self.down = down
    }
}
