import Foundation

/// A message left at a place, as the backend stores it.
public struct Post: Equatable, Sendable {
    public let objectId: String
    public let text: String
    public let location: GeoPoint
    /// The author's `name`, else `username`; nil when the backend does not say who wrote it.
    public let author: String?
    public let createdAt: Date

    public init(objectId: String, text: String, location: GeoPoint, author: String?, createdAt: Date) {
        self.objectId = objectId
        self.text = text
        self.location = location
        self.author = author
        self.createdAt = createdAt
    }
}
