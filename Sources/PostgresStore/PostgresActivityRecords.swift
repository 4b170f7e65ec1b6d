import Foundation
import PostgresNIO
import WallDomain

// The `Activity` class row by row, as anywall-server serves it over PostgreSQL. Votes and reports
// go through the social layer's own transactions (`castVote`, `fileReport`), so the counters and
// removals move exactly as they do on the SQLite store; reply notices are the wall's own.
extension PostgresWall {
    /// Casts, changes or withdraws (`none`) the session `token`'s vote on `objectId` from
    /// `location` (the wall's reach is the rule); its row after it, nil when withdrawn.
    public func vote(_ vote: Vote, on objectId: String, from location: GeoPoint?, token: String) async throws -> StoredActivity? {
        let row = try await transaction("voting") { connection in
            let (me, target) = try await self.castVote(connection, vote, on: objectId, from: location, token: token)
            return try await self.vote(connection, of: me, on: target)
        }
        await noteWrite(by: token)
        return row
    }

    /// Changes or withdraws the vote row `activityId`, which must be the session `token`'s own
    /// (`notWritable` otherwise); its row after it, nil when withdrawn.
    public func changeVote(_ activityId: String, to vote: Vote, from location: GeoPoint?, token: String) async throws -> StoredActivity? {
        let row = try await transaction("changing a vote") { connection in
            let me = try await self.user(connection, token: token)
            let posts = try await self.collect(connection.query("""
                SELECT p.object_id FROM activity a JOIN posts p ON p.id = a.post_id
                WHERE a.object_id = \(activityId) AND a.type = 'vote' AND a.from_user_id = \(me.id)
                """, logger: self.logger).decode(String.self))
            guard let post = posts.first else { throw AnywallError.notWritable(objectId: activityId) }
            let (voter, target) = try await self.castVote(connection, vote, on: post, from: location, token: token)
            return try await self.vote(connection, of: voter, on: target)
        }
        await noteWrite(by: token)
        return row
    }

    /// Files or replaces the session `token`'s report of `objectId`; its row after it.
    public func report(_ objectId: String, reason: ReportReason, note: String?, from location: GeoPoint, token: String) async throws -> StoredActivity {
        let note = try ReportNote.validated(note)
        let row = try await transaction("reporting") { connection in
            let (me, target) = try await self.fileReport(connection, objectId, reason: reason, note: note, from: location, token: token)
            var statement = PostgresStatement()
            let condition = "a.post_id = \(statement.bind(target)) AND a.type = 'report' AND a.from_user_id = \(statement.bind(me))"
            guard let row = try await self.activities(connection, condition, statement, reader: me).first else {
                throw AnywallError.failure("a report vanished inside its own transaction")
            }
            return row
        }
        await noteWrite(by: token)
        return row
    }

    /// The `Activity` rows `filter` asks for that the session `token`'s user may read, newest
    /// first: their own rows; votes on their posts without the voter; reply notices about their
    /// posts and the threads they replied in; removals of their posts; every report, for a moderator.
    public func activities(_ filter: ActivityFilter, skip: Int, limit: Int, token: String) async throws -> [StoredActivity] {
        try await call("reading activity") {
            let me = try await self.user(self.client, token: token).id
            let moderator = try await self.isModerator(self.client, me)
            var statement = PostgresStatement()
            let reader = statement.bind(me)
            let readable = """
                (a.from_user_id = \(reader) OR (a.type <> 'report' AND a.to_user_id = \(reader)) OR (a.type = 'report' AND \(statement.bind(moderator)))
                 OR (a.type = 'reply' AND a.post_id IN (SELECT parent_id FROM posts WHERE user_id = \(reader) AND parent_id IS NOT NULL)))
                """
            let condition = Self.sql(filter, &statement)
            let page = " ORDER BY a.created_at DESC, a.id DESC LIMIT \(statement.bind(limit)) OFFSET \(statement.bind(skip))"
            return try await self.activities(self.client, "\(readable) AND \(condition)" + page, statement, reader: me)
        }
    }

    /// `filter` as SQL over `activity a` joined to its post `p`, its values bound in `statement`.
    private static func sql(_ filter: ActivityFilter, _ statement: inout PostgresStatement) -> String {
        var conditions = ["true"]
        if !filter.alternatives.isEmpty {
            var parts: [String] = []
            for alternative in filter.alternatives { parts.append(sql(alternative, &statement)) }
            conditions.append("(" + parts.joined(separator: " OR ") + ")")
        }
        if let user = filter.inThreadsRepliedBy {
            conditions.append("""
                a.post_id IN (SELECT parent_id FROM posts WHERE parent_id IS NOT NULL AND user_id = (SELECT id FROM users WHERE object_id = \(statement.bind(user))))
                """)
        }
        // To the millisecond, as the rows' times are kept: a time read back from a row finds only later ones.
        if let after = filter.after { conditions.append("a.created_at > \(statement.bind(millisecond(after)))") }
        if let objectId = filter.objectId { conditions.append("a.object_id = \(statement.bind(objectId))") }
        if let kinds = filter.kinds { conditions.append("a.type = ANY(\(statement.bind(kinds.map(\.rawValue).sorted())))") }
        if let posts = filter.posts { conditions.append("p.object_id = ANY(\(statement.bind(posts.sorted())))") }
        if let fromUser = filter.fromUser { conditions.append("a.from_user_id = (SELECT id FROM users WHERE object_id = \(statement.bind(fromUser)))") }
        if let toUser = filter.toUser { conditions.append("a.to_user_id = (SELECT id FROM users WHERE object_id = \(statement.bind(toUser)))") }
        return "(" + conditions.joined(separator: " AND ") + ")"
    }

    /// The vote row of the user with row id `voter` on the post with row id `post`, nil when there is none.
    private func vote(_ connection: PostgresConnection, of voter: Int64, on post: Int64) async throws -> StoredActivity? {
        var statement = PostgresStatement()
        let condition = "a.post_id = \(statement.bind(post)) AND a.type = 'vote' AND a.from_user_id = \(statement.bind(voter))"
        return try await activities(connection, condition, statement, reader: voter).first
    }

    /// The rows `condition` (over `a`, the row, and `p`, its post) picks, with `statement`'s values
    /// bound, as the user with row id `reader` is told them.
    private func activities(_ database: some PostgresQueryRunner, _ condition: String, _ statement: PostgresStatement,
                            reader: Int64) async throws -> [StoredActivity] {
        let rows = try await collect(database.run(statement.query("""
            SELECT a.object_id, a.type, a.from_user_id, fu.object_id, tu.object_id, p.object_id, r.object_id, a.value, a.reason, a.note, a.created_at
            FROM activity a JOIN posts p ON p.id = a.post_id LEFT JOIN posts r ON r.id = a.reply_id
            LEFT JOIN users fu ON fu.id = a.from_user_id LEFT JOIN users tu ON tu.id = a.to_user_id
            WHERE \(condition)
            """), logger: logger).decode((String, String, Int64?, String?, String?, String, String?, Int?, String?, String?, Date).self))
        return rows.map { row in
            let kind = StoredActivity.Kind(rawValue: row.1) ?? .reply
            // Who voted is the voter's to know: the post's author reads the vote without them.
            let voterHidden = kind == .vote && row.2 != reader
            return StoredActivity(objectId: row.0, kind: kind, fromUser: voterHidden ? nil : row.3, toUser: row.4, post: row.5, reply: row.6,
                                  vote: row.7.flatMap(Vote.init(value:)), reason: row.8.flatMap(ReportReason.init(rawValue:)), note: row.9,
                                  createdAt: row.10)
        }
    }
}
