import Foundation

/// A message left at a place, as the backend stores it.
public struct Post: Equatable, Sendable {
    public let objectId: String
    public let text: String
    public let location: GeoPoint
    /// The author's `name`, else `username`; nil when the backend does not say who wrote it.
    public let author: String?
    public let createdAt: Date
    /// The sum of its votes.
    public let score: Int
    /// How many replies its thread has.
    public let replyCount: Int
    /// The objectId of its thread's post, for a reply; nil for a post.
    public let parent: String?
    /// The reader's own vote on it: nil when the reader has not voted or the backend was asked
    /// without a session.
    public let myVote: Vote?
    /// Why it is removed, told only to its author and the moderators (others never get it).
    public let removed: PostRemoval?

    public init(objectId: String, text: String, location: GeoPoint, author: String?, createdAt: Date,
                score: Int = 0, replyCount: Int = 0, parent: String? = nil, myVote: Vote? = nil, removed: PostRemoval? = nil) {
        self.objectId = objectId
        self.text = text
        self.location = location
        self.author = author
        self.createdAt = createdAt
        self.score = score
        self.replyCount = replyCount
        self.parent = parent
        self.myVote = myVote
        self.removed = removed
    }

    /// The same post with the reader's own vote and the removal as the reader may be told them.
    public func telling(myVote: Vote?, removed: PostRemoval?) -> Post {
        Post(objectId: objectId, text: text, location: location, author: author, createdAt: createdAt,
             score: score, replyCount: replyCount, parent: parent, myVote: myVote, removed: removed)
    }
}
