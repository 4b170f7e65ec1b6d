import AnywallSupport
import Foundation
import PostgresNIO
import WallDomain

/// Replies, votes, reports and moderators in PostgreSQL, as the SQLite store keeps them
/// (`EmbeddedSocial`). Each change is one transaction: the post it is about is locked first, so
/// that changes to one post, from any number of servers, take turns and each reads the counters
/// the one before it left; then the `activity` row and the counters it moves, then the removal
/// `CommunityRules` decides from them. What is allowed, and when a post goes, is decided there,
/// not here.
extension PostgresWall {
    /// A reply by the session `token`'s user in the thread of post `objectId`, written at
    /// `location`, within the wall's reach of the thread's post; the reply as stored.
    public func reply(to objectId: String, text: String, at location: GeoPoint, token: String) async throws -> StoredPost {
        let reply = try await transaction("replying") { connection in
            let (me, config, target) = try await self.socialTarget(connection, objectId, token: token)
            try CommunityRules.checkReplyTarget(objectId, parent: target.parent)
            try CommunityRules.checkReach(from: location, to: target.threadLocation, radius: CommunityRules(config: config).reach)
            let text = try PostText.validated(text, maxCharacters: config.postMaxCharacterCount)
            let now = Self.millisecond(self.clock.now())
            // A reply is read by whoever reads its thread: it takes the thread's readers.
            let inserted = try await self.collect(connection.query("""
                INSERT INTO posts (object_id, text, location, user_id, created_at, readers, parent_id)
                VALUES (\(RandomIdentifier.objectId()), \(text), ST_SetSRID(ST_MakePoint(\(location.longitude), \(location.latitude)), 4326)::geography,
                        \(me.id), \(now), \(target.readers), \(target.id))
                RETURNING id
                """, logger: self.logger).decode(Int64.self))
            guard let replyId = inserted.first else { throw AnywallError.failure("a reply just written is gone") }
            try await connection.query("UPDATE posts SET reply_count = reply_count + 1 WHERE id = \(target.id)", logger: self.logger)
            try await connection.query("""
                INSERT INTO activity (object_id, type, from_user_id, to_user_id, post_id, reply_id, created_at)
                VALUES (\(RandomIdentifier.objectId()), 'reply', \(me.id), (SELECT user_id FROM posts WHERE id = \(target.id)), \(target.id), \(replyId), \(now))
                """, logger: self.logger)
            guard let stored = try await self.storedPost(connection, rowId: replyId) else { throw AnywallError.failure("a reply just written is gone") }
            return stored
        }
        await noteWrite(by: token)
        return reply
    }

    /// Casts, changes or withdraws the vote in `connection`'s transaction, moving the score and
    /// applying the removal with it; the voter's and the post's row ids. A withdrawal needs no
    /// place: it only takes back what was cast from near.
    func castVote(_ connection: PostgresConnection, _ vote: Vote, on objectId: String, from location: GeoPoint?,
                  token: String) async throws -> (me: Int64, target: Int64) {
        let (me, config, target) = try await socialTarget(connection, objectId, token: token)
        let rules = CommunityRules(config: config)
        if vote != .none {
            guard let location else { throw AnywallError.inputRejected("a vote needs the place it is cast from") }
            try CommunityRules.checkReach(from: location, to: target.threadLocation, radius: rules.reach)
        }
        try CommunityRules.checkVoter(me.user.objectId, author: target.authorId)
        let old = try await collect(connection.query("""
            SELECT value FROM activity WHERE post_id = \(target.id) AND type = 'vote' AND from_user_id = \(me.id)
            """, logger: logger).decode(Int.self)).first
        let now = Self.millisecond(clock.now())
        switch (vote, old) {
        case (.none, _):
            try await connection.query("DELETE FROM activity WHERE post_id = \(target.id) AND type = 'vote' AND from_user_id = \(me.id)", logger: logger)
        case (_, nil):
            try await connection.query("""
                INSERT INTO activity (object_id, type, from_user_id, to_user_id, post_id, value, created_at)
                VALUES (\(RandomIdentifier.objectId()), 'vote', \(me.id), (SELECT user_id FROM posts WHERE id = \(target.id)), \(target.id), \(vote.value), \(now))
                """, logger: logger)
        case (_, _?):
            try await connection.query("""
                UPDATE activity SET value = \(vote.value), created_at = \(now) WHERE post_id = \(target.id) AND type = 'vote' AND from_user_id = \(me.id)
                """, logger: logger)
        }
        let score = target.score + vote.value - (old ?? 0)
        try await connection.query("UPDATE posts SET score = \(score) WHERE id = \(target.id)", logger: logger)
        try await applyRemoval(connection, rules, target, score: score, reportCount: target.reportCount, now: now)
        return (me.id, target.id)
    }

    /// Files or replaces the report in `connection`'s transaction, counting a reporter once and
    /// applying the removal with it; the reporter's and the post's row ids. `note` is validated.
    func fileReport(_ connection: PostgresConnection, _ objectId: String, reason: ReportReason, note: String?, from location: GeoPoint,
                    token: String) async throws -> (me: Int64, target: Int64) {
        let (me, config, target) = try await socialTarget(connection, objectId, token: token)
        let rules = CommunityRules(config: config)
        try CommunityRules.checkReach(from: location, to: target.threadLocation, radius: rules.reach)
        try CommunityRules.checkReporter(me.user.objectId, author: target.authorId)
        let now = Self.millisecond(clock.now())
        let replaced = try await collect(connection.query("""
            UPDATE activity SET reason = \(reason.rawValue), note = \(note), created_at = \(now)
            WHERE post_id = \(target.id) AND type = 'report' AND from_user_id = \(me.id) RETURNING 1
            """, logger: logger).decode(Int.self))
        // A second report by the same account replaces the first and counts once.
        guard replaced.isEmpty else { return (me.id, target.id) }
        try await connection.query("""
            INSERT INTO activity (object_id, type, from_user_id, to_user_id, post_id, reason, note, created_at)
            VALUES (\(RandomIdentifier.objectId()), 'report', \(me.id), (SELECT user_id FROM posts WHERE id = \(target.id)), \(target.id),
                    \(reason.rawValue), \(note), \(now))
            """, logger: logger)
        try await connection.query("UPDATE posts SET report_count = report_count + 1 WHERE id = \(target.id)", logger: logger)
        try await applyRemoval(connection, rules, target, score: target.score, reportCount: target.reportCount + 1, now: now)
        return (me.id, target.id)
    }

    /// Deletes the session `token`'s post or reply `objectId` (a moderator's: any) with its
    /// replies; a reply leaves its thread's count with it.
    public func delete(_ objectId: String, token: String) async throws {
        try await transaction("deleting a post") { connection in
            let me = try await self.user(connection, token: token)
            let moderator = try await self.isModerator(connection, me.id)
            try await self.lockThread(connection, of: objectId)
            try await self.lockPost(connection, objectId, toDelete: true)
            guard let target = try await self.socialTarget(connection, where: "p.object_id", is: objectId),
                  target.isSeen(by: me.user.objectId, moderator: moderator) else { throw Self.noPost(objectId) }
            guard moderator || target.authorId == me.user.objectId else { throw AnywallError.notWritable(objectId: objectId) }
            if let parentId = target.parentId {
                try await connection.query("UPDATE posts SET reply_count = reply_count - 1 WHERE id = \(parentId)", logger: self.logger)
            }
            // Its replies and activity go with it (ON DELETE CASCADE).
            try await connection.query("DELETE FROM posts WHERE id = \(target.id)", logger: self.logger)
        }
        await noteWrite(by: token)
    }

    /// Removes or restores post `objectId`: the session `token`'s user must be a moderator. A
    /// restored post stays up whatever the community does after.
    public func moderate(_ objectId: String, _ action: ModeratorAction, token: String) async throws {
        try await transaction("moderating a post") { connection in
            let me = try await self.user(connection, token: token)
            guard try await self.isModerator(connection, me.id) else {
                throw AnywallError.notModerator(wall: self.address.description, username: me.user.username)
            }
            try await self.lockPost(connection, objectId, toDelete: false)
            guard let target = try await self.socialTarget(connection, where: "p.object_id", is: objectId) else { throw Self.noPost(objectId) }
            let now = Self.millisecond(self.clock.now())
            switch action {
            case .restore:
                guard target.removed != nil else { throw AnywallError.inputRejected("\(objectId) is not removed: there is nothing to restore") }
                try await connection.query("UPDATE posts SET removed = NULL, restored_at = \(now) WHERE id = \(target.id)", logger: self.logger)
                try await self.tellAuthor(connection, .restored, target.id, now: now)
            case .remove:
                try await connection.query("""
                    UPDATE posts SET removed = \(PostRemoval.moderator.rawValue), removed_at = \(now) WHERE id = \(target.id)
                    """, logger: self.logger)
                try await self.tellAuthor(connection, .removed, target.id, now: now)
            }
        }
        await noteWrite(by: token)
    }

    /// Whether the session `token`'s user is in the role `moderators`.
    public func isModerator(token: String) async throws -> Bool {
        try await call("reading the moderators") {
            try await self.isModerator(self.client, try await self.user(self.client, token: token).id)
        }
    }

    // MARK: Helpers

    /// Whether the user with row id `userId` is in the role `moderators`.
    func isModerator(_ database: some PostgresQueryRunner, _ userId: Int64) async throws -> Bool {
        try await collect(database.run("""
            SELECT EXISTS (SELECT 1 FROM role_users JOIN roles ON roles.id = role_users.role_id
                           WHERE roles.name = \(RoleName.moderators) AND role_users.user_id = \(userId))
            """, logger: logger).decode(Bool.self)).first ?? false
    }

    /// The session's user, the config, and the post `objectId`, locked until the transaction
    /// ends, if the user may see it (and, for a reply, its thread).
    private func socialTarget(_ connection: PostgresConnection, _ objectId: String, token: String) async throws
        -> (me: (id: Int64, user: StoredUser), config: RemoteConfig, target: SocialTarget) {
        let me = try await user(connection, token: token)
        let moderator = try await isModerator(connection, me.id)
        try await lockPost(connection, objectId, toDelete: false)
        guard let target = try await socialTarget(connection, where: "p.object_id", is: objectId), target.isSeen(by: me.user.objectId, moderator: moderator) else {
            throw Self.noPost(objectId)
        }
        if let parentId = target.parentId {
            // A reply in a thread the user may no longer see is out of reach with it.
            guard let thread = try await socialTarget(connection, where: "p.id", is: parentId), thread.isSeen(by: me.user.objectId, moderator: moderator) else {
                throw Self.noPost(objectId)
            }
        }
        return (me, RemoteConfig(setOnWall: try await storedParams(connection)), target)
    }

    /// Locks post `objectId` until the transaction ends: for a change of its counters or removal
    /// (which lets rows that point at it be written meanwhile), or `toDelete` it. Each read of it
    /// after the lock, a statement of its own, sees the changes of those who held it before.
    private func lockPost(_ connection: PostgresConnection, _ objectId: String, toDelete: Bool) async throws {
        _ = try await collect(connection.query("""
            SELECT 1 FROM posts WHERE object_id = \(objectId) \(unescaped: toDelete ? "FOR UPDATE" : "FOR NO KEY UPDATE")
            """, logger: logger).decode(Int.self))
    }

    /// Locks the thread's post of `objectId`, when it is a reply, until the transaction ends. A
    /// change to a thread locks its post before any reply in it: two changes never wait for each other.
    func lockThread(_ connection: PostgresConnection, of objectId: String) async throws {
        _ = try await collect(connection.query("""
            SELECT 1 FROM posts WHERE id = (SELECT parent_id FROM posts WHERE object_id = \(objectId)) FOR NO KEY UPDATE
            """, logger: logger).decode(Int.self))
    }

    /// The target whose `column` (of `p`, the post) is `value`, if there is one.
    private func socialTarget(_ connection: PostgresConnection, where column: String, is value: some PostgresNonThrowingEncodable) async throws -> SocialTarget? {
        var statement = PostgresStatement()
        let sql = SocialTarget.select(where: "\(column) = \(statement.bind(value))")
        return try await collect(connection.query(statement.query(sql), logger: logger).decode(SocialTarget.Row.self)).first.map(SocialTarget.init)
    }

    /// Removes the post when the rules say so, and notes when (the author's feed shows it).
    private func applyRemoval(_ connection: PostgresConnection, _ rules: CommunityRules, _ target: SocialTarget, score: Int, reportCount: Int,
                              now: Date) async throws {
        let removal = rules.removal(score: score, reportCount: reportCount, current: target.removed, restored: target.restored)
        guard removal != target.removed else { return }
        try await connection.query("UPDATE posts SET removed = \(removal?.rawValue), removed_at = \(now) WHERE id = \(target.id)", logger: logger)
        try await tellAuthor(connection, .removed, target.id, now: now)
    }

    /// The `Activity` row that tells a post's author it was removed or restored (from no one:
    /// who removed it is the community's or a moderator's to know).
    private func tellAuthor(_ connection: PostgresConnection, _ kind: StoredActivity.Kind, _ postId: Int64, now: Date) async throws {
        try await connection.query("""
            INSERT INTO activity (object_id, type, to_user_id, post_id, created_at)
            VALUES (\(RandomIdentifier.objectId()), \(kind.rawValue), (SELECT user_id FROM posts WHERE id = \(postId)), \(postId), \(now))
            """, logger: logger)
    }

    static func noPost(_ objectId: String) -> AnywallError {
        .inputRejected("there is no post \(objectId) on this wall that you may see")
    }
}
