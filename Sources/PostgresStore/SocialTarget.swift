import WallDomain
import WallStorage

/// The post or reply a reply, vote, report, deletion or moderator's action is about, as the
/// social layer reads it in PostgreSQL (`SocialState`, whose fields it answers to).
@dynamicMemberLookup
struct SocialTarget {
    let state: SocialState

    subscript<Value>(dynamicMember field: KeyPath<SocialState, Value>) -> Value { state[keyPath: field] }

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
        state = SocialState(id: row.0, parentId: row.1, parent: row.2, authorId: row.3, score: row.4, reportCount: row.5,
                            removed: row.6.flatMap(PostRemoval.init(rawValue:)), restored: row.7, readers: row.8,
                            threadLocation: try GeoPoint(latitude: row.9, longitude: row.10))
    }

    func isSeen(by reader: String, moderator: Bool) -> Bool {
        state.isSeen(by: reader, moderator: moderator)
    }
}
