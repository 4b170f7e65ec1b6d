import AnywallSupport
import Foundation
import GRDB
import WallDomain

/// Replies, votes, reports and moderators on the embedded wall. Each change is one write
/// transaction: the `activity` row and the counters it moves, then the removal `CommunityRules`
/// decides from them. What is allowed, and when a post goes, is decided there, not here.
extension EmbeddedWall: SocialWall {
    public func nearby(_ query: WallQuery, sort: PostSort, session: Session?) throws -> [Post] {
        // Without a session, the nearest search is all there is to read (`anywall nearby`'s usual call).
        let reader = session == nil ? nil : try read { db in try self.reader(db, session) }
        let found: [Post]
        if sort == .near {
            found = try mapped {
                try database.inDatabase { db in
                    try EmbeddedNearbySearch(db: db, reader: .user(reader?.user.objectId), shape: .post, authors: authors, nodes: indexNodes).run(query)
                }
            }
        } else {
            found = try read { db in
                try EmbeddedRankedSearch(db: db, reader: reader?.user.objectId, now: self.clock.now()).run(query, sort)
            }
        }
        guard let reader, !found.isEmpty else { return found }
        return try read { db in try Self.withVotes(found, of: reader.id, db) }
    }

    public func reply(to objectId: String, text: String, at location: GeoPoint, radius: Distance, session: Session) throws -> Post {
        try write { db in
            let (me, rules, target) = try self.socialTarget(db, objectId, token: session.token)
            try CommunityRules.checkReplyTarget(objectId, parent: target.post.parent)
            try CommunityRules.checkReach(from: location, to: target.threadLocation, radius: min(radius, rules.reach))
            let text = try PostText.validated(text, maxCharacters: try self.config(db).postMaxCharacterCount)
            let now = Self.millis(self.clock.now())
            // A reply is read by whoever reads its thread: it takes the thread's readers.
            try db.execute(sql: """
                INSERT INTO post (objectId, text, latitude, longitude, userId, createdAt, readers, parentId) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [RandomIdentifier.objectId(), text, location.latitude, location.longitude, me.id, now, target.readers, target.id])
            let replyId = db.lastInsertedRowID
            try db.execute(sql: "UPDATE post SET replyCount = replyCount + 1 WHERE id = ?", arguments: [target.id])
            try db.execute(sql: """
                INSERT INTO activity (objectId, type, fromUserId, toUserId, postId, replyId, createdAt)
                VALUES (?, 'reply', ?, (SELECT userId FROM post WHERE id = ?), ?, ?, ?)
                """, arguments: [RandomIdentifier.objectId(), me.id, target.id, target.id, replyId, now])
            return try Self.socialRow(db, id: replyId, reader: me.id).post
        }
    }

    public func thread(_ objectId: String, skip: Int, limit: Int, session: Session?) throws -> PostThread {
        try read { db in
            let reader = try self.reader(db, session)
            let moderator = try reader.map { try Self.isModerator(db, $0.id) } ?? false
            var target = try Self.socialRow(db, objectId: objectId, reader: reader?.id)
            // A reply's id stands for its thread.
            if let parentId = target?.parentId { target = try Self.socialRow(db, id: parentId, reader: reader?.id) }
            guard let target, target.isSeen(by: reader?.user.objectId, moderator: moderator) else { throw Self.noPost(objectId) }
            let replies = try Row.fetchAll(db, sql: SocialRow.select(where: "p.parentId = :thread") + " ORDER BY p.createdAt, p.objectId LIMIT :limit OFFSET :skip",
                                           arguments: ["me": reader?.id, "thread": target.id, "limit": limit, "skip": skip])
                .map(SocialRow.init(row:))
                .filter { $0.isSeen(by: reader?.user.objectId, moderator: moderator) }
            return PostThread(post: target.post(for: reader?.user.objectId, moderator: moderator),
                              replies: replies.map { $0.post(for: reader?.user.objectId, moderator: moderator) })
        }
    }

    public func vote(_ vote: Vote, on objectId: String, from location: GeoPoint, radius: Distance, session: Session) throws -> Post {
        try write { db in
            let (me, target) = try castVote(db, vote, on: objectId, from: location, radius: radius, token: session.token)
            return try Self.socialRow(db, id: target, reader: me.id).post(for: me.user.objectId, moderator: false)
        }
    }

    /// Casts, changes or withdraws the vote in `db`'s transaction, moving the score and applying
    /// the removal with it; the voter and the post's row id. A withdrawal needs no place: it
    /// only takes back what was cast from near.
    func castVote(_ db: Database, _ vote: Vote, on objectId: String, from location: GeoPoint?, radius: Distance,
                  token: String) throws -> (me: (id: Int64, user: User), target: Int64) {
        let (me, rules, target) = try socialTarget(db, objectId, token: token)
        if vote != .none {
            guard let location else { throw AnywallError.inputRejected("a vote needs the place it is cast from") }
            try CommunityRules.checkReach(from: location, to: target.threadLocation, radius: min(radius, rules.reach))
        }
        try CommunityRules.checkVoter(me.user.objectId, author: target.authorId)
        let old = try Int.fetchOne(db, sql: "SELECT value FROM activity WHERE postId = ? AND type = 'vote' AND fromUserId = ?",
                                   arguments: [target.id, me.id])
        let now = Self.millis(clock.now())
        switch (vote, old) {
        case (.none, _):
            try db.execute(sql: "DELETE FROM activity WHERE postId = ? AND type = 'vote' AND fromUserId = ?", arguments: [target.id, me.id])
        case (_, nil):
            try db.execute(sql: """
                INSERT INTO activity (objectId, type, fromUserId, toUserId, postId, value, createdAt)
                VALUES (?, 'vote', ?, (SELECT userId FROM post WHERE id = ?), ?, ?, ?)
                """, arguments: [RandomIdentifier.objectId(), me.id, target.id, target.id, vote.value, now])
        case (_, _?):
            try db.execute(sql: "UPDATE activity SET value = ?, createdAt = ? WHERE postId = ? AND type = 'vote' AND fromUserId = ?",
                           arguments: [vote.value, now, target.id, me.id])
        }
        let score = target.score + vote.value - (old ?? 0)
        try db.execute(sql: "UPDATE post SET score = ? WHERE id = ?", arguments: [score, target.id])
        try Self.applyRemoval(db, rules, target, score: score, reportCount: target.reportCount, now: now)
        return (me, target.id)
    }

    public func report(_ objectId: String, reason: ReportReason, note: String?, from location: GeoPoint, radius: Distance,
                       session: Session) throws {
        let note = try ReportNote.validated(note)
        try write { db in _ = try fileReport(db, objectId, reason: reason, note: note, from: location, radius: radius, token: session.token) }
    }

    /// Files or replaces the report in `db`'s transaction, counting a reporter once and applying
    /// the removal with it; the reporter and the post's row id.
    func fileReport(_ db: Database, _ objectId: String, reason: ReportReason, note: String?, from location: GeoPoint, radius: Distance,
                    token: String) throws -> (me: (id: Int64, user: User), target: Int64) {
        let (me, rules, target) = try socialTarget(db, objectId, token: token)
        try CommunityRules.checkReach(from: location, to: target.threadLocation, radius: min(radius, rules.reach))
        try CommunityRules.checkReporter(me.user.objectId, author: target.authorId)
        let now = Self.millis(clock.now())
        try db.execute(sql: "UPDATE activity SET reason = ?, note = ?, createdAt = ? WHERE postId = ? AND type = 'report' AND fromUserId = ?",
                       arguments: [reason.rawValue, note, now, target.id, me.id])
        // A second report by the same account replaces the first and counts once.
        guard db.changesCount == 0 else { return (me, target.id) }
        try db.execute(sql: """
            INSERT INTO activity (objectId, type, fromUserId, toUserId, postId, reason, note, createdAt)
            VALUES (?, 'report', ?, (SELECT userId FROM post WHERE id = ?), ?, ?, ?, ?)
            """, arguments: [RandomIdentifier.objectId(), me.id, target.id, target.id, reason.rawValue, note, now])
        try db.execute(sql: "UPDATE post SET reportCount = reportCount + 1 WHERE id = ?", arguments: [target.id])
        try Self.applyRemoval(db, rules, target, score: target.score, reportCount: target.reportCount + 1, now: now)
        return (me, target.id)
    }

    public func reports(on objectId: String, session: Session) throws -> [Report] {
        try read { db in
            let me = try self.user(db, token: session.token)
            let moderator = try Self.isModerator(db, me.id)
            guard let target = try Self.socialRow(db, objectId: objectId, reader: me.id), target.isSeen(by: me.user.objectId, moderator: moderator) else {
                throw Self.noPost(objectId)
            }
            return try Row.fetchAll(db, sql: """
                SELECT u.username, a.reason, a.note, a.createdAt FROM activity a JOIN user u ON u.id = a.fromUserId
                WHERE a.postId = ? AND a.type = 'report' AND (? OR a.fromUserId = ?) ORDER BY a.createdAt DESC
                """, arguments: [target.id, moderator, me.id]).map(Self.report)
        }
    }

    public func delete(_ objectId: String, session: Session) throws {
        try write { db in
            let me = try self.user(db, token: session.token)
            let moderator = try Self.isModerator(db, me.id)
            guard let target = try Self.socialRow(db, objectId: objectId, reader: me.id), target.isSeen(by: me.user.objectId, moderator: moderator) else {
                throw Self.noPost(objectId)
            }
            guard moderator || target.authorId == me.user.objectId else { throw AnywallError.notWritable(objectId: objectId) }
            if let parentId = target.parentId {
                try db.execute(sql: "UPDATE post SET replyCount = replyCount - 1 WHERE id = ?", arguments: [parentId])
            }
            // Its replies and activity go with it (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM post WHERE id = ?", arguments: [target.id])
        }
    }

    public func activity(since: Date?, limit: Int, session: Session) throws -> [ActivityEntry] {
        try read { db in
            let me = try self.user(db, token: session.token)
            return try Row.fetchAll(db.cachedStatement(sql: Self.activityFeed),
                                    arguments: ["me": me.id, "since": since.map(Self.millis) ?? Int64.min, "limit": limit])
                .map(Self.activityEntry)
        }
    }

    public func karma(_ session: Session) throws -> Int {
        try read { db in
            let me = try self.user(db, token: session.token)
            return try Int.fetchOne(db, sql: "SELECT coalesce(sum(score), 0) FROM post WHERE userId = ?", arguments: [me.id]) ?? 0
        }
    }

    public func moderationQueue(limit: Int, session: Session) throws -> [ModeratedPost] {
        try read { db in
            let me = try self.moderator(db, session)
            let rows = try Row.fetchAll(db, sql: SocialRow.select(where: "p.removed IS NOT NULL OR p.reportCount > 0") + """
                 ORDER BY max(coalesce(p.removedAt, 0),
                              coalesce((SELECT max(a.createdAt) FROM activity a WHERE a.postId = p.id AND a.type = 'report'), 0)) DESC
                 LIMIT :limit
                """, arguments: ["me": me.id, "limit": limit]).map(SocialRow.init(row:))
            return try rows.map { row in
                let reports = try Row.fetchAll(db, sql: """
                    SELECT u.username, a.reason, a.note, a.createdAt FROM activity a JOIN user u ON u.id = a.fromUserId
                    WHERE a.postId = ? AND a.type = 'report' ORDER BY a.createdAt DESC
                    """, arguments: [row.id]).map(Self.report)
                return ModeratedPost(post: row.post, reports: reports)
            }
        }
    }

    public func moderate(_ objectId: String, _ action: ModeratorAction, session: Session) throws -> Post {
        try write { db in
            let me = try self.moderator(db, session)
            guard let target = try Self.socialRow(db, objectId: objectId, reader: me.id) else { throw Self.noPost(objectId) }
            let now = Self.millis(self.clock.now())
            switch action {
            case .restore:
                guard target.removed != nil else { throw AnywallError.inputRejected("\(objectId) is not removed: there is nothing to restore") }
                try db.execute(sql: "UPDATE post SET removed = NULL, restoredAt = ? WHERE id = ?", arguments: [now, target.id])
                try Self.tellAuthor(db, .restored, target.id, now: now)
            case .remove:
                try db.execute(sql: "UPDATE post SET removed = ?, removedAt = ? WHERE id = ?",
                               arguments: [PostRemoval.moderator.rawValue, now, target.id])
                try Self.tellAuthor(db, .removed, target.id, now: now)
            }
            return try Self.socialRow(db, id: target.id, reader: me.id).post
        }
    }

    /// The embedded wall asks no master key: whoever may write its file decides, as for `import`.
    public func setModerator(_ username: String, _ isModerator: Bool, masterKey: String?) throws {
        let username = try Username.validated(username)
        try write { db in
            guard let userId = try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE username = ?", arguments: [username]) else {
                throw AnywallError.inputRejected("there is no user '\(username)' on this wall")
            }
            try db.execute(sql: "INSERT OR IGNORE INTO role (objectId, name, createdAt) VALUES (?, ?, ?)",
                           arguments: [RandomIdentifier.objectId(), RoleName.moderators, Self.millis(self.clock.now())])
            let role = "(SELECT id FROM role WHERE name = '\(RoleName.moderators)')"
            if isModerator {
                try db.execute(sql: "INSERT OR IGNORE INTO roleUser (roleId, userId) VALUES (\(role), ?)", arguments: [userId])
            } else {
                try db.execute(sql: "DELETE FROM roleUser WHERE roleId = \(role) AND userId = ?", arguments: [userId])
            }
        }
    }

    // MARK: Helpers

    /// The session's user, the rules, and the post `objectId` if the user may see it.
    private func socialTarget(_ db: Database, _ objectId: String, token: String) throws
        -> (me: (id: Int64, user: User), rules: CommunityRules, target: SocialRow) {
        let me = try user(db, token: token)
        let moderator = try Self.isModerator(db, me.id)
        guard let target = try Self.socialRow(db, objectId: objectId, reader: me.id), target.isSeen(by: me.user.objectId, moderator: moderator) else {
            throw Self.noPost(objectId)
        }
        if let parentId = target.parentId {
            // A reply in a thread the user may no longer see is out of reach with it.
            guard try Self.socialRow(db, id: parentId, reader: me.id).isSeen(by: me.user.objectId, moderator: moderator) else { throw Self.noPost(objectId) }
        }
        return (me, CommunityRules(config: try config(db)), target)
    }

    /// Who reads: the session's user; anyone when there is no session, or when it has ended (a
    /// listing needs none, and a stale session file must not stop one).
    private func reader(_ db: Database, _ session: Session?) throws -> (id: Int64, user: User)? {
        guard let session else { return nil }
        do {
            return try user(db, token: session.token)
        } catch AnywallError.sessionExpired {
            return nil
        }
    }

    /// The session's user, who must be a moderator.
    private func moderator(_ db: Database, _ session: Session) throws -> (id: Int64, user: User) {
        let me = try user(db, token: session.token)
        guard try Self.isModerator(db, me.id) else {
            throw AnywallError.notModerator(wall: description, username: me.user.username)
        }
        return me
    }

    static func isModerator(_ db: Database, _ userId: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM roleUser JOIN role ON role.id = roleUser.roleId WHERE role.name = ? AND roleUser.userId = ?)
            """, arguments: [RoleName.moderators, userId]) ?? false
    }

    private static func noPost(_ objectId: String) -> AnywallError {
        .inputRejected("there is no post \(objectId) on this wall that you may see")
    }

    private static func socialRow(_ db: Database, objectId: String, reader: Int64?) throws -> SocialRow? {
        try Row.fetchOne(db, sql: SocialRow.select(where: "p.objectId = :objectId"), arguments: ["me": reader, "objectId": objectId])
            .map(SocialRow.init(row:))
    }

    private static func socialRow(_ db: Database, id: Int64, reader: Int64?) throws -> SocialRow {
        guard let row = try Row.fetchOne(db, sql: SocialRow.select(where: "p.id = :id"), arguments: ["me": reader, "id": id]) else {
            throw AnywallError.failure("post \(id) vanished inside its own transaction")
        }
        return try SocialRow(row: row)
    }

    /// Removes the post when the rules say so, and notes when (the author's feed shows it).
    private static func applyRemoval(_ db: Database, _ rules: CommunityRules, _ target: SocialRow, score: Int, reportCount: Int, now: Int64) throws {
        let removal = rules.removal(score: score, reportCount: reportCount, current: target.removed, restored: target.restored)
        guard removal != target.removed else { return }
        try db.execute(sql: "UPDATE post SET removed = ?, removedAt = ? WHERE id = ?", arguments: [removal?.rawValue, now, target.id])
        try tellAuthor(db, .removed, target.id, now: now)
    }

    /// The `Activity` row that tells a post's author it was removed or restored (from no one:
    /// who removed it is the community's or a moderator's to know).
    private static func tellAuthor(_ db: Database, _ kind: StoredActivity.Kind, _ postId: Int64, now: Int64) throws {
        try db.execute(sql: """
            INSERT INTO activity (objectId, type, toUserId, postId, createdAt) VALUES (?, ?, (SELECT userId FROM post WHERE id = ?), ?, ?)
            """, arguments: [RandomIdentifier.objectId(), kind.rawValue, postId, postId, now])
    }

    /// `posts` with the votes of the user with row id `userId` on them.
    private static func withVotes(_ posts: [Post], of userId: Int64, _ db: Database) throws -> [Post] {
        let objectIds = posts.map(\.objectId)
        let marks = databaseQuestionMarks(count: objectIds.count)
        var votes: [String: Vote] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT p.objectId, a.value FROM activity a JOIN post p ON p.id = a.postId
            WHERE a.type = 'vote' AND a.fromUserId = ? AND p.objectId IN (\(marks))
            """, arguments: StatementArguments([userId] + objectIds)) {
            votes[row[0]] = Vote(value: row[1])
        }
        return posts.map { $0.telling(myVote: votes[$0.objectId], removed: $0.removed) }
    }

    /// The feed, one query a page: replies by others to the user's posts and in threads they
    /// replied in (Anypic's reply notices), votes on their posts gathered per post, and their posts
    /// removed and restored; newest first, each with its post (and reply) read in the same query.
    private static let activityFeed = """
        SELECT e.kind, e.time, e.up, e.down, \(postColumns("p")), \(postColumns("r"))
        FROM (
            SELECT 'reply' AS kind, a.createdAt AS time, a.postId, a.replyId, 0 AS up, 0 AS down FROM activity a
            WHERE a.type = 'reply' AND a.fromUserId IS NOT :me
              AND (a.toUserId = :me OR a.postId IN (SELECT parentId FROM post WHERE userId = :me AND parentId IS NOT NULL))
            UNION ALL
            SELECT 'votes', max(a.createdAt), a.postId, NULL, sum(a.value = 1), sum(a.value = -1) FROM activity a
            WHERE a.type = 'vote' AND a.toUserId = :me GROUP BY a.postId
            UNION ALL
            SELECT a.type, a.createdAt, a.postId, NULL, 0, 0 FROM activity a WHERE a.type IN ('removed', 'restored') AND a.toUserId = :me
        ) e
        JOIN post p ON p.id = e.postId LEFT JOIN user pu ON pu.id = p.userId
        LEFT JOIN post r ON r.id = e.replyId LEFT JOIN user ru ON ru.id = r.userId
        WHERE e.time > :since
        ORDER BY e.time DESC, e.kind
        LIMIT :limit
        """

    /// The ten columns `post(_:at:)` reads of the post aliased `alias` (its author aliased `alias` + `u`).
    private static func postColumns(_ alias: String) -> String {
        """
        \(alias).objectId, \(alias).text, \(alias).latitude, \(alias).longitude, coalesce(\(alias)u.name, \(alias)u.username),
        \(alias).createdAt, \(alias).score, \(alias).replyCount, (SELECT objectId FROM post WHERE id = \(alias).parentId),
        CASE WHEN \(alias).userId = :me THEN \(alias).removed END
        """
    }

    /// The post whose `postColumns` start at column `start`, nil when they are NULL.
    private static func post(_ row: Row, at start: Int) throws -> Post? {
        guard let objectId: String = row[start] else { return nil }
        return Post(objectId: objectId, text: row[start + 1], location: try GeoPoint(latitude: row[start + 2], longitude: row[start + 3]),
                    author: row[start + 4], createdAt: date(millis: row[start + 5]), score: row[start + 6], replyCount: row[start + 7],
                    parent: row[start + 8], removed: (row[start + 9] as String?).flatMap(PostRemoval.init(rawValue:)))
    }

    private static func activityEntry(_ row: Row) throws -> ActivityEntry {
        guard let kind = ActivityEntry.Kind(rawValue: row[0]), let post = try post(row, at: 4) else {
            throw AnywallError.failure("the wall's activity holds an entry of an unknown kind")
        }
        return ActivityEntry(kind: kind, time: date(millis: row[1]), post: post, reply: try Self.post(row, at: 14), up: row[2], down: row[3])
    }

    private static func report(_ row: Row) -> Report {
        Report(reporter: row[0], reason: ReportReason(rawValue: row[1]) ?? .other, note: row[2], createdAt: date(millis: row[3]))
    }
}
