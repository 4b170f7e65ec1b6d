import Foundation

/// A post as a wall keeps it, with its author's account and when it was last changed: what a
/// server returns about a post.
public struct StoredPost: Equatable, Sendable {
    public let objectId: String
    public let text: String
    public let location: GeoPoint
    /// nil for a post whose author's account is gone.
    public let author: StoredUser?
    public let createdAt: Date
    /// `createdAt` until the post is edited.
    public let updatedAt: Date

    public init(objectId: String, text: String, location: GeoPoint, author: StoredUser?, createdAt: Date, updatedAt: Date) {
        self.objectId = objectId
        self.text = text
        self.location = location
        self.author = author
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The post as every backend returns it: the author by name, else username.
    public var post: Post {
        Post(objectId: objectId, text: text, location: location, author: author.map { $0.name ?? $0.username }, createdAt: createdAt)
    }
}
