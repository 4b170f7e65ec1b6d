import Foundation
import ParseWire
import WallDomain

/// Replies, votes and reports on a Parse Server, kept as every Parse app of this family keeps
/// them: replies are `Posts` with a `parent`, votes and reports are rows of Anypic's `Activity`
/// class, the counters live on the post. The rules (`CommunityRules`) are checked here before
/// anything is sent; a server that enforces them itself (anywall-server, or Parse Server with
/// such Cloud Code) refuses a client's `Increment` of its counters with 119, which is taken as the
/// server's own count. On a stock server the CLI writes the counters and applies the removal
/// when it reads (docs/parse.md says what only a server can enforce).
extension ParseWall: SocialWall {
    public func nearby(_ query: WallQuery, sort: PostSort, session: Session?) throws -> [Post] {
        // Every sort but nearest ranks the posts the search distance finds: read as many as a page
        // may hold, nearest first, and rank them here.
        let widest = sort == .near ? query
            : try WallQuery(center: query.center, searchDistance: query.searchDistance, limit: WallQuery.limitRange.upperBound, within: query.area)
        let found: [Post]
        do {
            found = try nearbyPosts(widest, session: session)
        } catch AnywallError.sessionExpired where session != nil {
            // A session ended elsewhere does not stop a listing: it reads as anyone's, as on the embedded wall.
            return try nearby(query, sort: sort, session: nil)
        }
        let ranked = sort.ordered(found, from: query.center, now: Date(), limit: query.limit)
        guard let session, !ranked.isEmpty else { return ranked }
        let votes = try myVotes(on: ranked.map { $0.objectId }, session: session)
        return ranked.map { $0.telling(myVote: votes[$0.objectId]?.vote, removed: $0.removed) }
    }

    public func reply(to objectId: String, text: String, at location: GeoPoint, radius: Distance, session: Session) throws -> Post {
        let thread = try seenPost(objectId, session: session)
        try CommunityRules.checkReplyTarget(objectId, parent: thread.parent)
        try CommunityRules.checkReach(from: location, to: thread.location, radius: min(radius, try communityRules().reach))
        let created = try social {
            try client.send(.post, "classes/Posts", body: ParseNewPost(text: text, location: location, userId: session.user.objectId, parent: objectId),
                            sessionToken: session.token, as: ParseCreated.self)
        }
        if try counted(["replyCount": .increment(1)], on: objectId, session: session) {
            _ = try social {
                try client.send(.post, "classes/Activity", body: ParseActivity.replyNotice(from: session.user.objectId, to: thread.authorId,
                                                                                          post: objectId, reply: created.objectId),
                                sessionToken: session.token, as: ParseCreated.self)
            }
        }
        return Post(objectId: created.objectId, text: text, location: location, author: session.user.displayName,
                    createdAt: ParseDate.date(from: created.createdAt) ?? Date(), parent: objectId)
    }

    public func thread(_ objectId: String, skip: Int, limit: Int, session: Session?) throws -> PostThread {
        do {
            return try thread(objectId, skip: skip, limit: limit, readAs: session)
        } catch AnywallError.sessionExpired where session != nil {
            // As a listing: a session ended elsewhere reads the thread as anyone's.
            return try thread(objectId, skip: skip, limit: limit, readAs: nil)
        }
    }

    private func thread(_ objectId: String, skip: Int, limit: Int, readAs session: Session?) throws -> PostThread {
        var post = try seenPost(objectId, session: session)
        if let parent = post.parent { post = try seenPost(parent, session: session) }
        let condition = Self.threadWhere(post.post.objectId)
        let replies = try social {
            try client.send(.get, "classes/Posts", query: [("where", Self.text(condition)), ("include", "user"), ("order", "createdAt"),
                                                           ("skip", "\(skip)"), ("limit", "\(limit)")],
                            sessionToken: session?.token, as: ParseResults<ParsePostObject>.self)
        }.results.compactMap(SocialPost.init(record:))
        let rules = replies.contains(where: \.needsRules) || post.needsRules ? try communityRules() : nil
        return PostThread(post: post.shown(to: session?.user.objectId, under: rules) ?? post.post,
                          replies: replies.compactMap { $0.shown(to: session?.user.objectId, under: rules) })
    }

    public func vote(_ vote: Vote, on objectId: String, from location: GeoPoint, radius: Distance, session: Session) throws -> Post {
        let target = try seenPost(objectId, session: session)
        if vote != .none { try CommunityRules.checkReach(from: location, to: try threadLocation(of: target, session: session), radius: min(radius, try communityRules().reach)) }
        try CommunityRules.checkVoter(session.user.objectId, author: target.authorId)
        // One vote per account: look for the account's row first (a stock server cannot stop two
        // votes sent at once; anywall-server keeps one whatever is sent).
        let old = try myVotes(on: [objectId], session: session)[objectId]
        switch (vote, old) {
        case (.none, nil):
            return target.post
        case (.none, let old?):
            _ = try social { try client.send(.delete, "classes/Activity/\(old.objectId)", sessionToken: session.token, as: ParseIgnored.self) }
        case (_, nil):
            _ = try social {
                try client.send(.post, "classes/Activity", body: ParseActivity.vote(vote, from: session.user.objectId, to: target.authorId,
                                                                                   post: objectId, at: location),
                                sessionToken: session.token, as: ParseCreated.self)
            }
        case (_, let old?):
            _ = try social {
                try client.send(.put, "classes/Activity/\(old.objectId)", body: ParseActivity.voteChange(vote, at: location),
                                sessionToken: session.token, as: ParseIgnored.self)
            }
        }
        let change = vote.value - (old?.vote.value ?? 0)
        if change != 0 { _ = try counted(["score": .increment(change)], on: objectId, session: session) }
        let myVote = vote == .none ? nil : vote
        // A vote that removed the post leaves it out of the voter's sight: tell them the score it reached.
        guard let after = try? seenPost(objectId, session: session).post else {
            let post = target.post
            return Post(objectId: post.objectId, text: post.text, location: post.location, author: post.author, createdAt: post.createdAt,
                        score: post.score + change, replyCount: post.replyCount, parent: post.parent, myVote: myVote)
        }
        return after.telling(myVote: myVote, removed: nil)
    }

    public func report(_ objectId: String, reason: ReportReason, note: String?, from location: GeoPoint, radius: Distance,
                       session: Session) throws {
        let note = try ReportNote.validated(note)
        let target = try seenPost(objectId, session: session)
        try CommunityRules.checkReach(from: location, to: try threadLocation(of: target, session: session), radius: min(radius, try communityRules().reach))
        try CommunityRules.checkReporter(session.user.objectId, author: target.authorId)
        let old = try activities(["type": .string("report"), "post": ParsePointer(className: "Posts", objectId: objectId).json,
                                  "fromUser": ParsePointer.user(session.user.objectId).json], session: session).first
        let row = ParseActivity.report(reason, note: note, from: session.user.objectId, to: target.authorId, post: objectId, at: location)
        if let old {
            // A second report replaces the first and counts once.
            _ = try social { try client.send(.put, "classes/Activity/\(old.objectId)", body: row, sessionToken: session.token, as: ParseIgnored.self) }
        } else {
            _ = try social { try client.send(.post, "classes/Activity", body: row, sessionToken: session.token, as: ParseCreated.self) }
            _ = try counted(["reportCount": .increment(1)], on: objectId, session: session)
        }
    }

    public func reports(on objectId: String, session: Session) throws -> [Report] {
        _ = try seenPost(objectId, session: session)
        let rows = try activities(["type": .string("report"), "post": ParsePointer(className: "Posts", objectId: objectId).json], session: session)
        let reporters = try usernames(Set(rows.compactMap(\.fromUser)))
        return rows.map { Report(reporter: $0.fromUser.flatMap { reporters[$0] } ?? "(gone)", reason: $0.reason ?? .other, note: $0.note,
                                 createdAt: $0.createdAt) }
    }

    public func delete(_ objectId: String, session: Session) throws {
        let target = try seenPost(objectId, session: session)
        do {
            _ = try client.send(.delete, "classes/Posts/\(objectId)", sessionToken: session.token, as: ParseIgnored.self)
        } catch .refused(code: .some(ParseErrorCode.objectNotFound), message: _, status: _) {
            // Found just now, so not the user's to delete: as the embedded wall says it.
            throw AnywallError.notWritable(objectId: objectId)
        } catch {
            throw translate(error)
        }
        if let parent = target.parent { _ = try counted(["replyCount": .increment(-1)], on: parent, session: session) }
    }

    public func activity(since: Date?, limit: Int, session: Session) throws -> [ActivityEntry] {
        // One query a page: the rows about the user's posts (votes, reply notices, removals) or
        // about the threads they replied in, with the posts and replies included.
        guard case .object(var condition) = Self.activityWhere(user: session.user.objectId) else { return [] }
        if let since { condition["createdAt"] = .object(["$gt": ParseDateValue(since).json]) }
        let rows = try social {
            try client.send(.get, "classes/Activity", query: [("where", Self.text(.object(condition))), ("include", "post.user,reply.user"),
                                                              ("order", "-createdAt"), ("limit", "\(limit)")],
                            sessionToken: session.token, as: ParseResults<ParseActivityRow>.self)
        }.results
        return ParseActivityRow.feed(rows, for: session.user.objectId)
    }

    /// The `where` of the replies in the thread of post `objectId` (its REST read and its LiveQuery
    /// subscription).
    public static func threadWhere(_ objectId: String) -> JSONValue {
        .object(["parent": ParsePointer(className: "Posts", objectId: objectId).json])
    }

    /// The `where` of the activity feed of user `userId`, without a time: the rows about the
    /// user's posts, or reply notices in the threads they replied in (one `$or` level, a `$select`
    /// of the parents of their replies), as the feed's REST read and its subscription send it.
    public static func activityWhere(user userId: String) -> JSONValue {
        let me = ParsePointer.user(userId).json
        let threads: JSONValue = .object(["$select": .object([
            "query": .object(["className": .string("Posts"), "where": .object(["user": me, "parent": .object(["$exists": .bool(true)])])]),
            "key": .string("parent"),
        ])])
        return .object(["$or": .array([.object(["toUser": me]), .object(["type": .string("reply"), "post": threads])])])
    }

    public func karma(_ session: Session) throws -> Int {
        let condition: JSONValue = .object(["user": ParsePointer.user(session.user.objectId).json])
        var total = 0
        var skip = 0
        while true {
            let page = try social {
                try client.send(.get, "classes/Posts", query: [("where", Self.text(condition)), ("keys", "score"), ("limit", "\(Self.page)")]
                                    + (skip > 0 ? [("skip", "\(skip)")] : []),
                                sessionToken: session.token, as: ParseResults<ParsePostObject>.self)
            }.results
            total += page.reduce(0) { $0 + SocialPost.counter($1.extra["score"]) }
            guard page.count == Self.page, skip + Self.page <= Self.maxSkip else { return total }
            skip += Self.page
        }
    }

    public func moderationQueue(limit: Int, session: Session) throws -> [ModeratedPost] {
        let condition: JSONValue = .object(["$or": .array([.object(["removed": .object(["$exists": .bool(true)])]),
                                                           .object(["reportCount": .object(["$gt": .number(0)])])])])
        let records = try social(moderating: session) {
            try client.send(.get, "classes/Posts", query: [("where", Self.text(condition)), ("include", "user"), ("order", "-updatedAt"),
                                                           ("limit", "\(limit)")],
                            sessionToken: session.token, as: ParseResults<ParsePostObject>.self)
        }.results
        let posts = records.compactMap(SocialPost.init(record:))
        guard !posts.isEmpty else { return [] }
        let rows = try activities(["type": .string("report"),
                                   "post": .object(["$in": .array(posts.map { ParsePointer(className: "Posts", objectId: $0.post.objectId).json })])],
                                  session: session)
        let reporters = try usernames(Set(rows.compactMap(\.fromUser)))
        return posts.map { post in
            ModeratedPost(post: post.post, reports: rows.filter { $0.post == post.post.objectId }.map { row in
                Report(reporter: row.fromUser.flatMap { reporters[$0] } ?? "(gone)", reason: row.reason ?? .other, note: row.note, createdAt: row.createdAt)
            })
        }
    }

    public func moderate(_ objectId: String, _ action: ModeratorAction, session: Session) throws -> Post {
        // A restore says when, so that a client applying the removal on read (a stock server)
        // knows the community no longer removes it.
        let body: JSONValue = action == .remove ? .object(["removed": .string(PostRemoval.moderator.rawValue)])
            : .object(["removed": .object(["__op": .string("Delete")]), "restoredAt": ParseDateValue(Date()).json])
        _ = try social(moderating: session) {
            try client.send(.put, "classes/Posts/\(objectId)", body: body, sessionToken: session.token, as: ParseIgnored.self)
        }
        return try seenPost(objectId, session: session).post
    }

    /// Through Parse's Roles API with the master key: the role `moderators` (made with its
    /// first user, readable by everyone) and its `users` relation.
    public func setModerator(_ username: String, _ isModerator: Bool, masterKey: String?) throws {
        let username = try Username.validated(username)
        let masterKey = try required(masterKey)
        let users = try call(withMasterKey: true) {
            try client.send(.get, "users", query: [("where", Self.text(.object(["username": .string(username)]))), ("limit", "1")],
                            masterKey: masterKey, as: ParseResults<ParseUserObject>.self)
        }.results
        guard let user = users.first else { throw AnywallError.inputRejected("there is no user '\(username)' on this wall") }
        let change: JSONValue = .object(["__op": .string(isModerator ? "AddRelation" : "RemoveRelation"),
                                         "objects": .array([ParsePointer.user(user.objectId).json])])
        let roles = try call(withMasterKey: true) {
            try client.send(.get, "roles", query: [("where", Self.text(.object(["name": .string(RoleName.moderators)])))],
                            masterKey: masterKey, as: ParseResults<ParseRoleObject>.self)
        }.results
        if let role = roles.first {
            _ = try call(withMasterKey: true) {
                try client.send(.put, "roles/\(role.objectId)", body: JSONValue.object(["users": change]), masterKey: masterKey, as: ParseIgnored.self)
            }
        } else if isModerator {
            let role: JSONValue = .object(["name": .string(RoleName.moderators), "ACL": .object(["*": .object(["read": .bool(true)])]), "users": change])
            _ = try call(withMasterKey: true) { try client.send(.post, "roles", body: role, masterKey: masterKey, as: ParseCreated.self) }
        }
    }

    // MARK: Helpers

    /// Parse's largest page, read at once where the CLI needs every row.
    private static let page = 1000

    /// The wall's rules, from its config.
    private func communityRules() throws -> CommunityRules {
        CommunityRules(config: try fetchConfig())
    }

    /// The post `objectId` as `session`'s user may see it; refused as the embedded wall refuses
    /// a post that is not there or hidden from them.
    private func seenPost(_ objectId: String, session: Session?) throws -> SocialPost {
        let record: ParsePostObject
        do {
            record = try client.send(.get, "classes/Posts/\(objectId)", query: [("include", "user")], sessionToken: session?.token,
                                     as: ParsePostObject.self)
        } catch .refused(code: .some(ParseErrorCode.objectNotFound), message: _, status: _) {
            throw AnywallError.inputRejected("there is no post \(objectId) on this wall that you may see")
        } catch {
            throw translate(error)
        }
        guard let post = SocialPost(record: record),
              post.shown(to: session?.user.objectId, under: post.needsRules ? try communityRules() : nil) != nil else {
            throw AnywallError.inputRejected("there is no post \(objectId) on this wall that you may see")
        }
        return post
    }

    /// Where the thread of `post` is: what decides whether one may reply, vote or report.
    private func threadLocation(of post: SocialPost, session: Session) throws -> GeoPoint {
        guard let parent = post.parent else { return post.location }
        return try seenPost(parent, session: session).location
    }

    /// The user's vote rows on `objectIds`, by post.
    private func myVotes(on objectIds: [String], session: Session) throws -> [String: (objectId: String, vote: Vote)] {
        let rows = try activities(["type": .string("vote"), "fromUser": ParsePointer.user(session.user.objectId).json,
                                   "post": .object(["$in": .array(objectIds.map { ParsePointer(className: "Posts", objectId: $0).json })])],
                                  session: session)
        var votes: [String: (objectId: String, vote: Vote)] = [:]
        for row in rows { if let vote = row.vote { votes[row.post] = (row.objectId, vote) } }
        return votes
    }

    private func activities(_ condition: [String: JSONValue], session: Session) throws -> [ParseActivityRow] {
        try social {
            try client.send(.get, "classes/Activity", query: [("where", Self.text(.object(condition))), ("order", "-createdAt"), ("limit", "\(Self.page)")],
                            sessionToken: session.token, as: ParseResults<ParseActivityRow>.self)
        }.results
    }

    /// The usernames of the accounts `objectIds` (public on every Parse wall).
    private func usernames(_ objectIds: Set<String>) throws -> [String: String] {
        guard !objectIds.isEmpty else { return [:] }
        let condition: JSONValue = .object(["objectId": .object(["$in": .array(objectIds.sorted().map(JSONValue.string))])])
        let users = try social {
            try client.send(.get, "users", query: [("where", Self.text(condition)), ("limit", "\(Self.page)")], as: ParseResults<ParseUserObject>.self)
        }.results
        return Dictionary(users.compactMap { user in user.username.map { (user.objectId, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Moves a counter of post `objectId`; false when the server keeps its counters itself and
    /// refused (119), so that the row that moved it is the server's to write too.
    private func counted(_ changes: [String: ParseCounterChange], on objectId: String, session: Session) throws -> Bool {
        do {
            _ = try client.send(.put, "classes/Posts/\(objectId)", body: changes, sessionToken: session.token, as: ParseIgnored.self)
            return true
        } catch .refused(code: .some(ParseErrorCode.operationForbidden), message: _, status: _) {
            return false
        } catch .refused(code: .some(ParseErrorCode.objectNotFound), message: _, status: _) {
            // A post only its author may write (Anywall's ACL) keeps its counters where Cloud Code
            // moves them: the row is written, the count is the server's business (docs/parse.md).
            return true
        } catch {
            throw translate(error)
        }
    }

    /// Runs a request of the social layer: the server's refusal by the rules (142) is the
    /// input-rejected error it is on the embedded wall.
    private func social<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as ParseFailure {
            if case .refused(code: .some(ParseErrorCode.validationFailed), message: let message, status: _) = failure {
                throw AnywallError.inputRejected(message)
            }
            throw translate(failure)
        }
    }

    /// As `social`, for a moderator's request: a refusal for want of the role says so.
    private func social<T>(moderating session: Session, _ body: () throws -> T) throws -> T {
        do {
            return try social(body)
        } catch AnywallError.operationForbidden {
            throw AnywallError.notModerator(wall: description, username: session.user.username)
        }
    }

    private static func text(_ json: JSONValue) -> String {
        String(decoding: (try? JSONEncoder().encode(json)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
