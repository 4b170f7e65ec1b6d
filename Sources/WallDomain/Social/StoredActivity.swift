import Foundation

/// A row of the `Activity` class (Anypic's one join table) as a server returns it: a vote, a
/// report or a reply notice, told to its reader as the rules allow (a vote's voter is told to the
/// voter alone).
public struct StoredActivity: Equatable, Sendable {
    /// What the row records: a vote, a report, a reply notice, or the removal or restore of the
    /// author's post (told to them, from no one).
    public enum Kind: String, CaseIterable, Sendable {
        case vote, report, reply, removed, restored
    }

    public let objectId: String
    public let kind: Kind
    /// Who did it: nil when the reader may not know (another's vote), or the account is gone.
    public let fromUser: String?
    /// Whose post it is about.
    public let toUser: String?
    /// The thread's post (a reply notice), or the post voted on or reported.
    public let post: String
    /// The reply, for a reply notice.
    public let reply: String?
    public let vote: Vote?
    public let reason: ReportReason?
    public let note: String?
    public let createdAt: Date

    public init(objectId: String, kind: Kind, fromUser: String?, toUser: String?, post: String, reply: String? = nil,
                vote: Vote? = nil, reason: ReportReason? = nil, note: String? = nil, createdAt: Date) {
        self.objectId = objectId
        self.kind = kind
        self.fromUser = fromUser
        self.toUser = toUser
        self.post = post
        self.reply = reply
        self.vote = vote
        self.reason = reason
        self.note = note
        self.createdAt = createdAt
    }
}

/// Which `Activity` rows a find asks for; every part given must hold. The reader sees only the
/// rows the rules let them read, whatever the filter.
public struct ActivityFilter: Equatable, Sendable {
    /// At least one of these holds too, when there are any (`$or`).
    public var alternatives: [ActivityFilter] = []
    /// Rows about the threads this user (an objectId) replied in.
    public var inThreadsRepliedBy: String?
    /// Rows made after this.
    public var after: Date?
    public var objectId: String?
    public var kinds: Set<StoredActivity.Kind>?
    /// The posts (objectIds) the rows are about.
    public var posts: Set<String>?
    public var fromUser: String?
    public var toUser: String?

    public init(objectId: String? = nil, kinds: Set<StoredActivity.Kind>? = nil, posts: Set<String>? = nil, fromUser: String? = nil, toUser: String? = nil) {
        self.objectId = objectId
        self.kinds = kinds
        self.posts = posts
        self.fromUser = fromUser
        self.toUser = toUser
    }
}
