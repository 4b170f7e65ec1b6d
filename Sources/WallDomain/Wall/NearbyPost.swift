import Foundation

/// A post as seen from a place: its distance, and whether it is close enough to read.
///
/// This is the stable JSON shape every machine-readable format prints. A hidden post
/// carries no text and no author, so nothing beyond the filter radius leaks into a pipe.
public struct NearbyPost: Equatable, Sendable, Codable {
    public let objectId: String
    /// nil when the post is hidden.
    public let text: String?
    /// nil when the post is hidden or its author is unknown.
    public let author: String?
    public let location: GeoPoint
    public let distance: Distance
    public let visible: Bool
    public let createdAt: Date
    /// The sum of its votes, shown hidden or not.
    public let score: Int
    /// How many replies its thread has, shown hidden or not.
    public let replyCount: Int
    /// Its thread's post, for a reply.
    public let parent: String?
    /// The reader's own vote.
    public let myVote: Vote?
    /// Why it is removed: only its author and the moderators are ever told.
    public let removed: PostRemoval?

    /// The view of `post` from `place`: readable within `filterRadius`, hidden beyond it.
    public init(_ post: Post, from place: GeoPoint, filterRadius: Distance) {
        self.init(post, from: place, visible: place.distance(to: post.location) <= filterRadius)
    }

    /// A post of a thread seen from `place`: its text shows when the thread's post is within
    /// `filterRadius`, wherever the reply was written.
    public init(_ post: Post, inThreadOf thread: Post, from place: GeoPoint, filterRadius: Distance) {
        self.init(post, from: place, visible: place.distance(to: thread.location) <= filterRadius)
    }

    private init(_ post: Post, from place: GeoPoint, visible: Bool) {
        self.init(objectId: post.objectId, text: visible ? post.text : nil, author: visible ? post.author : nil,
                  location: post.location, distance: place.distance(to: post.location), visible: visible, createdAt: post.createdAt,
                  score: post.score, replyCount: post.replyCount, parent: post.parent, myVote: post.myVote, removed: post.removed)
    }

    /// The same post seen from `place` now. Text and author stay only if they were known and the
    /// post is still within `filterRadius`: a post seen before is not shown again from afar.
    public func seen(from place: GeoPoint, filterRadius: Distance) -> NearbyPost {
        let distance = place.distance(to: location)
        let visible = self.visible && distance <= filterRadius
        return NearbyPost(objectId: objectId, text: visible ? text : nil, author: visible ? author : nil,
                          location: location, distance: distance, visible: visible, createdAt: createdAt,
                          score: score, replyCount: replyCount, parent: parent, myVote: myVote, removed: removed)
    }

    private init(objectId: String, text: String?, author: String?, location: GeoPoint, distance: Distance,
                 visible: Bool, createdAt: Date, score: Int, replyCount: Int, parent: String?, myVote: Vote?, removed: PostRemoval?) {
        self.objectId = objectId
        self.text = text
        self.author = author
        self.location = location
        self.distance = distance
        self.visible = visible
        self.createdAt = createdAt
        self.score = score
        self.replyCount = replyCount
        self.parent = parent
        self.myVote = myVote
        self.removed = removed
    }

    private enum CodingKeys: String, CodingKey {
        case objectId, text, author, location, distanceMeters, visible, createdAt, score, replyCount, parent, myVote, removed
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(objectId, forKey: .objectId)
        // Explicit nulls: a hidden post says so rather than dropping keys.
        try c.encode(text, forKey: .text)
        try c.encode(author, forKey: .author)
        try c.encode(location, forKey: .location)
        try c.encode((distance.meters * 10).rounded() / 10, forKey: .distanceMeters)
        try c.encode(visible, forKey: .visible)
        try c.encode(ParseDate.string(from: createdAt), forKey: .createdAt)
        try c.encode(score, forKey: .score)
        try c.encode(replyCount, forKey: .replyCount)
        try c.encode(parent, forKey: .parent)
        try c.encode(myVote, forKey: .myVote)
        // Only its author and the moderators are told, and only when it is removed.
        try c.encodeIfPresent(removed, forKey: .removed)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        objectId = try c.decode(String.self, forKey: .objectId)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        author = try c.decodeIfPresent(String.self, forKey: .author)
        location = try c.decode(GeoPoint.self, forKey: .location)
        distance = .meters(try c.decode(Double.self, forKey: .distanceMeters))
        visible = try c.decode(Bool.self, forKey: .visible)
        let created = try c.decode(String.self, forKey: .createdAt)
        guard let date = ParseDate.date(from: created) else {
            throw DecodingError.dataCorruptedError(forKey: .createdAt, in: c, debugDescription: "bad date \(created)")
        }
        createdAt = date
        // Results saved before the wall had votes and replies have none of these.
        score = try c.decodeIfPresent(Int.self, forKey: .score) ?? 0
        replyCount = try c.decodeIfPresent(Int.self, forKey: .replyCount) ?? 0
        parent = try c.decodeIfPresent(String.self, forKey: .parent)
        myVote = try c.decodeIfPresent(Vote.self, forKey: .myVote)
        removed = try c.decodeIfPresent(PostRemoval.self, forKey: .removed)
    }
}

extension Array where Element == Post {
    /// Applies the filter radius to a query's result, keeping its order.
    public func seen(from place: GeoPoint, filterRadius: Distance) -> [NearbyPost] {
        map { NearbyPost($0, from: place, filterRadius: filterRadius) }
    }
}
