import Foundation
import GRDB
import WallDomain

// The `Activity` class row by row, as anywall-server serves it over the embedded wall. Votes and
// reports go through the social layer's own transactions (`castVote`, `fileReport`), so the
// counters and removals move exactly as they do for the CLI; reply notices are the wall's own.
extension EmbeddedWall {
    /// Casts or changes the session's vote on `objectId` from `location` (the wall's reach is the
    /// rule); its row after it, nil when withdrawn.
    public func storedVote(_ vote: Vote, on objectId: String, from location: GeoPoint?, token: String) throws -> StoredActivity? {
        try write { db in
            let (me, target) = try castVote(db, vote, on: objectId, from: location, radius: CommunityRules.anyDistance, token: token)
            return try Self.activity(db, "a.postId = ? AND a.type = 'vote' AND a.fromUserId = ?", [target, me.id], reader: me.id).first
        }
    }

    /// Files or replaces the session's report of `objectId`; its row after it.
    public func storedReport(_ objectId: String, reason: ReportReason, note: String?, from location: GeoPoint, token: String) throws -> StoredActivity {
        let note = try ReportNote.validated(note)
        return try write { db in
            let (me, target) = try fileReport(db, objectId, reason: reason, note: note, from: location, radius: CommunityRules.anyDistance, token: token)
            guard let row = try Self.activity(db, "a.postId = ? AND a.type = 'report' AND a.fromUserId = ?", [target, me.id],
                                              reader: me.id).first else {
                throw AnywallError.failure("a report vanished inside its own transaction")
            }
            return row
        }
    }

    /// The vote row `objectId`, which must be the session's own, changed to `vote` (nil: withdrawn).
    public func changeStoredVote(_ activityId: String, to vote: Vote, from location: GeoPoint?, token: String) throws -> StoredActivity? {
        let postId: String? = try read { db in
            let me = try user(db, token: token)
            return try String.fetchOne(db, sql: """
                SELECT p.objectId FROM activity a JOIN post p ON p.id = a.postId WHERE a.objectId = ? AND a.type = 'vote' AND a.fromUserId = ?
                """, arguments: [activityId, me.id])
        }
        guard let postId else { throw AnywallError.notWritable(objectId: activityId) }
        return try storedVote(vote, on: postId, from: location, token: token)
    }

    /// The `Activity` rows `filter` asks for that the session's user may read, newest first:
    /// their own rows; votes on their posts without the voter; reply notices about their posts
    /// and the threads they replied in; removals of their posts; every report, for a moderator.
    public func storedActivities(_ filter: ActivityFilter, skip: Int, limit: Int, token: String) throws -> [StoredActivity] {
        try read { db in
            let me = try user(db, token: token)
            let moderator = try Self.isModerator(db, me.id)
            let (condition, arguments) = Self.sql(filter)
            return try Self.activity(db, """
                (a.fromUserId = ? OR (a.type <> 'report' AND a.toUserId = ?) OR (a.type = 'report' AND ?)
                 OR (a.type = 'reply' AND a.postId IN (SELECT parentId FROM post WHERE userId = ? AND parentId IS NOT NULL)))
                AND \(condition) ORDER BY a.createdAt DESC, a.id DESC LIMIT ? OFFSET ?
                """, [me.id, me.id, moderator, me.id] + arguments + [limit, skip], reader: me.id)
        }
    }

    /// `filter` as SQL over `activity a` joined to its post `p`, with its arguments.
    private static func sql(_ filter: ActivityFilter) -> (String, [any DatabaseValueConvertible]) {
        var conditions = ["1"]
        var arguments: [any DatabaseValueConvertible] = []
        if !filter.alternatives.isEmpty {
            let parts = filter.alternatives.map(sql)
            conditions.append("(" + parts.map(\.0).joined(separator: " OR ") + ")")
            arguments += parts.flatMap(\.1)
        }
        if let user = filter.inThreadsRepliedBy {
            conditions.append("a.postId IN (SELECT parentId FROM post WHERE parentId IS NOT NULL AND userId = (SELECT id FROM user WHERE objectId = ?))")
            arguments.append(user)
        }
        if let after = filter.after {
            conditions.append("a.createdAt > ?")
            arguments.append(millis(after))
        }
        if let objectId = filter.objectId {
            conditions.append("a.objectId = ?")
            arguments.append(objectId)
        }
        if let kinds = filter.kinds {
            conditions.append("a.type IN (\(databaseQuestionMarks(count: max(kinds.count, 1))))")
            arguments += kinds.isEmpty ? [""] : kinds.map(\.rawValue).sorted()
        }
        if let posts = filter.posts {
            conditions.append("p.objectId IN (\(databaseQuestionMarks(count: max(posts.count, 1))))")
            arguments += posts.isEmpty ? [""] : posts.sorted()
        }
        if let fromUser = filter.fromUser {
            conditions.append("a.fromUserId = (SELECT id FROM user WHERE objectId = ?)")
            arguments.append(fromUser)
        }
        if let toUser = filter.toUser {
            conditions.append("a.toUserId = (SELECT id FROM user WHERE objectId = ?)")
            arguments.append(toUser)
        }
        return ("(" + conditions.joined(separator: " AND ") + ")", arguments)
    }

    /// Whether the session's user is in the role `moderators`.
    public func isModerator(token: String) throws -> Bool {
        try read { db in try Self.isModerator(db, try user(db, token: token).id) }
    }

    private static func activity(_ db: Database, _ condition: String, _ arguments: [any DatabaseValueConvertible],
                                 reader: Int64) throws -> [StoredActivity] {
        try Row.fetchAll(db, sql: """
            SELECT a.objectId, a.type, a.fromUserId, fu.objectId, tu.objectId, p.objectId, r.objectId, a.value, a.reason, a.note, a.createdAt
            FROM activity a JOIN post p ON p.id = a.postId LEFT JOIN post r ON r.id = a.replyId
            LEFT JOIN user fu ON fu.id = a.fromUserId LEFT JOIN user tu ON tu.id = a.toUserId
            WHERE \(condition)
            """, arguments: StatementArguments(arguments)).map { row in
            let kind = StoredActivity.Kind(rawValue: row[1]) ?? .reply
            // Who voted is the voter's to know: the post's author reads the vote without them.
            let voterHidden = kind == .vote && (row[2] as Int64?) != reader
            return StoredActivity(objectId: row[0], kind: kind, fromUser: voterHidden ? nil : row[3], toUser: row[4], post: row[5],
                                  reply: row[6], vote: (row[7] as Int?).flatMap(Vote.init(value:)),
                                  reason: (row[8] as String?).flatMap(ReportReason.init(rawValue:)), note: row[9],
                                  createdAt: date(millis: row[10]))
        }
    }
}
