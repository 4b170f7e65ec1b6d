import Foundation

/// A post as a wall keeps it, with its author's account and when it was last changed: what a
/// server returns about a post.
public struct StoredPost: Hashable, Sendable {
    public let objectId: String
    public let text: String
    public let location: GeoPoint
    /// nil for a post whose author's account is gone, or that the master key left alone.
    public let author: StoredUser?
    public let createdAt: Date
    /// `createdAt` until the post is edited.
    public let updatedAt: Date
    /// Who may read and change the post.
    public let access: PostAccess
    /// The fields a client added, by name, as Parse writes their values.
    public let fields: [String: JSONValue]
    /// The objectId of its thread's post, when it is a reply.
    public let parent: String?
    /// The sum of its votes, and how many replies it has: counters only the wall moves.
    public let score: Int
    public let replyCount: Int
    /// How many accounts reported it.
    public let reportCount: Int
    /// Why it is hidden from all but its author and the moderators, when it is.
    public let removed: PostRemoval?
    /// When a moderator last restored it: the community's votes and reports no longer remove it.
    public let restoredAt: Date?

    public init(objectId: String, text: String, location: GeoPoint, author: StoredUser?, createdAt: Date, updatedAt: Date,
                access: PostAccess, fields: [String: JSONValue] = [:], parent: String? = nil, score: Int = 0, replyCount: Int = 0,
                reportCount: Int = 0, removed: PostRemoval? = nil, restoredAt: Date? = nil) {
        self.objectId = objectId
        self.text = text
        self.location = location
        self.author = author
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.access = access
        self.fields = fields
        self.parent = parent
        self.score = score
        self.replyCount = replyCount
        self.reportCount = reportCount
        self.removed = removed
        self.restoredAt = restoredAt
    }

    /// The post as every backend returns it: the author by name, else username.
    public var post: Post {
        Post(objectId: objectId, text: text, location: location, author: author.map { $0.name ?? $0.username }, createdAt: createdAt,
             score: score, replyCount: replyCount, parent: parent, removed: removed)
    }
}
