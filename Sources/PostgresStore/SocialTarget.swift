import WallDomain
import WallStorage

/// The post or reply a reply, vote, report, deletion or moderator's action is about, as the
/// social layer reads it in PostgreSQL: its counters and removal, its thread, its author and its
/// readers.
struct SocialTarget {
    let id: Int64
    /// The row id and objectId of its thread's post, when it is a reply.
    let parentId: Int64?
    let parent: String?
    let authorId: String?
    let score: Int
    let reportCount: Int
    let removed: PostRemoval?
    /// Whether a moderator restored it: the community's removal no longer applies.
    let restored: Bool
    /// Its readers as stored (`PostAccess.storedReaders`): nil for everyone.
    let readers: String?
    /// Where its thread's post is: what decides whether its text shows, and who may reply.
    let threadLocation: GeoPoint

    /// The statement that reads the target whose row is `condition` (over `p`, the post, and
    /// `thread`, its thread's post).
    static func select(where condition: String) -> String {
        """
        SELECT p.id, p.parent_id, thread.object_id, author.object_id, p.score, p.report_count, p.removed, p.restored_at IS NOT NULL, p.readers,
               ST_Y(coalesce(thread.location, p.location)::geometry), ST_X(coalesce(thread.location, p.location)::geometry)
        FROM posts p LEFT JOIN users author ON author.id = p.user_id LEFT JOIN posts thread ON thread.id = p.parent_id
        WHERE \(condition)
        """
    }

    typealias Row = (Int64, Int64?, String?, String?, Int, Int, String?, Bool, String?, Double, Double)

    init(_ row: Row) throws {
        (id, parentId, parent, authorId, score, reportCount) = (row.0, row.1, row.2, row.3, row.4, row.5)
        removed = row.6.flatMap(PostRemoval.init(rawValue:))
        (restored, readers) = (row.7, row.8)
        threadLocation = try GeoPoint(latitude: row.9, longitude: row.10)
    }

    /// Whether `reader` (a user's objectId) sees it at all, as the SQLite store decides it.
    func isSeen(by reader: String, moderator: Bool) -> Bool {
        PostSight.isSeen(storedReaders: readers, author: authorId, removed: removed, by: reader, moderator: moderator)
    }
}
