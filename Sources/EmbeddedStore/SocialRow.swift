import Foundation
import GRDB
import WallDomain
import WallStorage

/// A post or reply as the social layer reads it on the embedded wall: what both stores read of
/// it (`SocialState`, whose fields it answers to), its reply count, and the post with the
/// reader's vote.
@dynamicMemberLookup
struct SocialRow {
    let state: SocialState
    let replyCount: Int
    /// The post, its removal told (to be shown only to its author and the moderators).
    let post: Post

    subscript<Value>(dynamicMember field: KeyPath<SocialState, Value>) -> Value { state[keyPath: field] }

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
        let removed = (row["removed"] as String?).flatMap(PostRemoval.init(rawValue:))
        state = SocialState(id: row["id"], parentId: row["parentId"], parent: row["parent"], authorId: row["authorId"], score: row["score"],
                            reportCount: row["reportCount"], removed: removed, restored: (row["restoredAt"] as Int64?) != nil,
                            readers: row["readers"], threadLocation: try GeoPoint(latitude: row["threadLatitude"], longitude: row["threadLongitude"]))
        replyCount = row["replyCount"]
        post = Post(objectId: row["objectId"], text: row["text"], location: try GeoPoint(latitude: row["latitude"], longitude: row["longitude"]),
                    author: row["author"], createdAt: EmbeddedWall.date(millis: row["createdAt"]), score: row["score"], replyCount: replyCount,
                    parent: row["parent"], myVote: (row["myVote"] as Int?).flatMap(Vote.init(value:)), removed: removed)
    }

    func isSeen(by reader: String?, moderator: Bool) -> Bool {
        state.isSeen(by: reader, moderator: moderator)
    }

    /// The post as `reader` gets it: the removal told only to its author and the moderators.
    func post(for reader: String?, moderator: Bool) -> Post {
        guard state.removed != nil, !moderator, reader == nil || reader != state.authorId else { return post }
        return post.telling(myVote: post.myVote, removed: nil)
    }
}
