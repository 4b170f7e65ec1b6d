import Foundation
import GRDB
import WallDomain
import WallStorage

/// A post or reply as the social layer reads it on the embedded wall: its counters and removal,
/// its thread's place, its author, and the reader's vote.
struct SocialRow {
    let id: Int64
    let parentId: Int64?
    let authorId: String?
    let score: Int
    let replyCount: Int
    let reportCount: Int
    let removed: PostRemoval?
    let restored: Bool
    /// The post's readers as stored (`PostAccess.storedReaders`): nil for everyone.
    let readers: String?
    /// Where its thread's post is: what decides whether its text shows, and who may reply.
    let threadLocation: GeoPoint
    /// The post, its removal told (to be shown only to its author and the moderators).
    let post: Post

    /// The columns `init(row:)` reads, for the reader whose user row id is bound as `:me`.
    static func select(where condition: String) -> String {
        """
        SELECT p.id, p.parentId, u.objectId AS authorId, p.score, p.replyCount, p.reportCount, p.removed, p.restoredAt, p.readers,
               coalesce(thread.latitude, p.latitude) AS threadLatitude, coalesce(thread.longitude, p.longitude) AS threadLongitude,
               p.objectId, p.text, p.latitude, p.longitude, coalesce(u.name, u.username) AS author, p.createdAt, thread.objectId AS parent,
               (SELECT value FROM activity v WHERE v.postId = p.id AND v.type = 'vote' AND v.fromUserId = :me) AS myVote
        FROM post p LEFT JOIN user u ON u.id = p.userId LEFT JOIN post thread ON thread.id = p.parentId
        WHERE \(condition)
        """
    }

    init(row: Row) throws {
        id = row["id"]
        parentId = row["parentId"]
        authorId = row["authorId"]
        score = row["score"]
        replyCount = row["replyCount"]
        reportCount = row["reportCount"]
        removed = (row["removed"] as String?).flatMap(PostRemoval.init(rawValue:))
        restored = (row["restoredAt"] as Int64?) != nil
        readers = row["readers"]
        threadLocation = try GeoPoint(latitude: row["threadLatitude"], longitude: row["threadLongitude"])
        post = Post(objectId: row["objectId"], text: row["text"], location: try GeoPoint(latitude: row["latitude"], longitude: row["longitude"]),
                    author: row["author"], createdAt: EmbeddedWall.date(millis: row["createdAt"]), score: score, replyCount: replyCount,
                    parent: row["parent"], myVote: (row["myVote"] as Int?).flatMap(Vote.init(value:)), removed: removed)
    }

    /// Whether `reader` (a user's objectId, nil for nobody signed in) may see it at all: it is
    /// theirs, or its ACL lets them and it is not removed (removed, for a moderator).
    func isSeen(by reader: String?, moderator: Bool) -> Bool {
        PostSight.isSeen(storedReaders: readers, author: authorId, removed: removed, by: reader, moderator: moderator)
    }

    /// The post as `reader` gets it: the removal told only to its author and the moderators.
    func post(for reader: String?, moderator: Bool) -> Post {
        guard removed != nil, !moderator, reader == nil || reader != authorId else { return post }
        return post.telling(myVote: post.myVote, removed: nil)
    }
}
