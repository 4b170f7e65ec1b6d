import EmbeddedStore
import Foundation
import GRDB
import TestSupport
import Testing
import WallDomain

/// The community rules on the embedded wall (the CLI's, and the file anywall-server's SQLite store keeps).
@Suite("Replies, votes, reports and moderators on the embedded wall")
struct SocialLayerTests {
    let here = try! GeoPoint(latitude: 37.7793, longitude: -122.4193)
    let radius = FilterRadius.defaultRadius

    /// A wall with a post by `author` at `here`, and `voters` other accounts.
    private func wallWithPost(voters: Int) throws -> (wall: EmbeddedWall, author: Session, post: Post, voters: [Session]) {
        let wall = try temporaryWall()
        let author = try wall.signUp(username: "author", password: "pw", name: nil)
        let post = try wall.createPost(text: "Free coffee", at: here, session: author, requestId: "r")
        let voters = try (0..<voters).map { try wall.signUp(username: "voter\($0)", password: "pw", name: nil) }
        return (wall, author, post, voters)
    }

    private func visibleToOthers(_ wall: EmbeddedWall, _ post: Post, as reader: Session?) throws -> Bool {
        try wall.nearby(try WallQuery(center: here), sort: .near, session: reader).contains { $0.objectId == post.objectId }
    }

    @Test("one vote per account: again replaces it, none withdraws it; no vote on your own post")
    func votes() throws {
        let (wall, author, post, voters) = try wallWithPost(voters: 2)
        #expect(try wall.vote(.up, on: post.objectId, from: here, radius: radius, session: voters[0]).score == 1)
        #expect(try wall.vote(.up, on: post.objectId, from: here, radius: radius, session: voters[0]).score == 1)
        let changed = try wall.vote(.down, on: post.objectId, from: here, radius: radius, session: voters[0])
        #expect(changed.score == -1 && changed.myVote == .down)
        #expect(try wall.vote(.down, on: post.objectId, from: here, radius: radius, session: voters[1]).score == -2)
        let withdrawn = try wall.vote(.none, on: post.objectId, from: here, radius: radius, session: voters[0])
        #expect(withdrawn.score == -1 && withdrawn.myVote == nil)
        #expect(throws: AnywallError.inputRejected("you cannot vote on your own post")) {
            try wall.vote(.up, on: post.objectId, from: here, radius: radius, session: author)
        }
        let seen = try wall.nearby(try WallQuery(center: here), sort: .near, session: voters[1])
        #expect(seen.first?.myVote == .down && seen.first?.score == -1)
        #expect(try wall.karma(author) == -1)
    }

    @Test("removed at exactly -5 for all but its author; restored, more downvotes leave it up; a moderator's removal stands")
    func removalByVotes() throws {
        let (wall, author, post, voters) = try wallWithPost(voters: 8)
        let moderator = voters[7]
        try wall.setModerator("voter7", true, masterKey: nil)
        for voter in voters.prefix(4) { _ = try wall.vote(.down, on: post.objectId, from: here, radius: radius, session: voter) }
        #expect(try visibleToOthers(wall, post, as: voters[5]))
        let fifth = try wall.vote(.down, on: post.objectId, from: here, radius: radius, session: voters[4])
        #expect(fifth.score == -5)
        #expect(try !visibleToOthers(wall, post, as: voters[5]))
        #expect(try !visibleToOthers(wall, post, as: nil))
        let mine = try wall.nearby(try WallQuery(center: here), sort: .near, session: author)
        #expect(mine.map(\.objectId) == [post.objectId] && mine[0].removed == .votes)
        #expect(throws: AnywallError.self) { try wall.vote(.down, on: post.objectId, from: here, radius: radius, session: voters[5]) }
        #expect(try wall.moderationQueue(limit: 10, session: moderator).map(\.post.objectId) == [post.objectId])

        #expect(try wall.moderate(post.objectId, .restore, session: moderator).removed == nil)
        _ = try wall.vote(.down, on: post.objectId, from: here, radius: radius, session: voters[5])
        #expect(try wall.vote(.down, on: post.objectId, from: here, radius: radius, session: voters[6]).score == -7)
        #expect(try visibleToOthers(wall, post, as: voters[0]))

        #expect(try wall.moderate(post.objectId, .remove, session: moderator).removed == .moderator)
        #expect(try !visibleToOthers(wall, post, as: voters[0]))
        #expect(try wall.thread(post.objectId, skip: 0, limit: 10, session: moderator).post.removed == .moderator)
        #expect(try wall.thread(post.objectId, skip: 0, limit: 10, session: author).post.removed == .moderator)
        #expect(throws: AnywallError.self) { try wall.thread(post.objectId, skip: 0, limit: 10, session: voters[0]) }
        #expect(throws: AnywallError.notModerator(wall: wall.description, username: "voter0")) {
            try wall.moderate(post.objectId, .restore, session: voters[0])
        }
    }

    @Test("removed at exactly 3 distinct reporters; a second report by one account counts once; who sees a report")
    func reports() throws {
        let (wall, author, post, voters) = try wallWithPost(voters: 4)
        try wall.setModerator("voter3", true, masterKey: nil)
        try wall.report(post.objectId, reason: .spam, note: "ads", from: here, radius: radius, session: voters[0])
        try wall.report(post.objectId, reason: .offensive, note: nil, from: here, radius: radius, session: voters[0])
        try wall.report(post.objectId, reason: .spam, note: nil, from: here, radius: radius, session: voters[1])
        #expect(try visibleToOthers(wall, post, as: voters[2]))
        // The reporter sees their own report; the moderator every one; the author and others none.
        #expect(try wall.reports(on: post.objectId, session: voters[0]).map(\.reason) == [.offensive])
        #expect(try wall.reports(on: post.objectId, session: voters[3]).map(\.reporter).sorted() == ["voter0", "voter1"])
        #expect(try wall.reports(on: post.objectId, session: voters[2]).isEmpty)
        #expect(try wall.reports(on: post.objectId, session: author).isEmpty)
        try wall.report(post.objectId, reason: .targetsSomeone, note: nil, from: here, radius: radius, session: voters[2])
        #expect(try !visibleToOthers(wall, post, as: voters[2]))
        #expect(try wall.thread(post.objectId, skip: 0, limit: 1, session: author).post.removed == .reports)
        #expect(throws: AnywallError.inputRejected("you cannot report your own post")) {
            try wall.report(post.objectId, reason: .spam, note: nil, from: here, radius: radius, session: author)
        }
    }

    @Test("replies: one level deep, only from within the radius, counted; a hidden thread's count shows")
    func replies() throws {
        let (wall, author, post, voters) = try wallWithPost(voters: 2)
        let near = try here.moved(.meters(900), bearing: 90)
        let far = try here.moved(.meters(1100), bearing: 90)
        let reply = try wall.reply(to: post.objectId, text: "Where?", at: near, radius: radius, session: voters[0])
        #expect(reply.parent == post.objectId)
        #expect(throws: AnywallError.self) { try wall.reply(to: post.objectId, text: "Hi", at: far, radius: radius, session: voters[1]) }
        // The wall holds a reader to the radius they chose, when it is narrower than its widest.
        #expect(throws: AnywallError.self) { try wall.reply(to: post.objectId, text: "Hi", at: near, radius: .meters(500), session: voters[1]) }
        #expect(throws: AnywallError.inputRejected("\(reply.objectId) is a reply: reply to its thread's post \(post.objectId) instead")) {
            try wall.reply(to: reply.objectId, text: "nested", at: here, radius: radius, session: voters[1])
        }
        _ = try wall.reply(to: post.objectId, text: "Thanks", at: here, radius: radius, session: author)
        let thread = try wall.thread(post.objectId, skip: 0, limit: 10, session: voters[1])
        #expect(thread.post.replyCount == 2 && thread.replies.map(\.text) == ["Where?", "Thanks"])
        // Replies are not listed by nearby, whatever the order.
        for sort in PostSort.allCases {
            #expect(try wall.nearby(try WallQuery(center: here), sort: sort, session: voters[1]).map(\.objectId) == [post.objectId])
        }
        let seen = NearbyPost(thread.replies[0], inThreadOf: thread.post, from: try here.moved(.meters(1500), bearing: 270), filterRadius: radius)
        #expect(!seen.visible && seen.text == nil && seen.replyCount == 0)
        try wall.delete(reply.objectId, session: voters[0])
        #expect(try wall.thread(post.objectId, skip: 0, limit: 10, session: nil).post.replyCount == 1)
        #expect(throws: AnywallError.notWritable(objectId: post.objectId)) { try wall.delete(post.objectId, session: voters[0]) }
    }

    @Test("new, top and hot read only what they need, and answer exactly as ranking every post within the distance")
    func rankedOrders() throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let wall = try temporaryWall(clock: WallClock { now })
        let alice = try wall.signUp(username: "alice", password: "pw", name: nil)
        var random = SeededGenerator(seed: 7)
        for i in 0..<400 {
            let place = try here.moved(.meters(Double(random.next() % 30_000)), bearing: Double(random.next() % 360))
            _ = try wall.createPost(text: "post \(i)", at: place, session: alice, requestId: "r\(i)")
        }
        // Ages from now to 30 days, scores from -4 to 40, many ties of each.
        let queue = try DatabaseQueue(path: wall.file.path)
        try queue.write { db in
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM post") {
                try db.execute(sql: "UPDATE post SET createdAt = ?, score = ? WHERE id = ?",
                               arguments: [1_790_000_000_000 - Int64(random.next() % 720) * 3_600_000, Int(random.next() % 45) - 4, id])
            }
        }
        for distance in [Distance.kilometers(5), .kilometers(20), .kilometers(100)] {
            let all = try wall.nearby(try WallQuery(center: here, searchDistance: distance, limit: 1000), sort: .near, session: nil)
            for sort in [PostSort.new, .top, .hot] {
                for limit in [1, 7, 20] {
                    let query = try WallQuery(center: here, searchDistance: distance, limit: limit)
                    #expect(try wall.nearby(query, sort: sort, session: nil) == sort.ordered(all, from: here, now: now, limit: limit),
                            "\(sort) within \(distance), limit \(limit)")
                }
            }
        }
    }

    @Test("a thread of 10,000 replies comes a page at a time, oldest first")
    func longThread() throws {
        let (wall, _, post, voters) = try wallWithPost(voters: 1)
        // Written straight to the file: ten thousand transactions would take the suite's time for nothing.
        let queue = try DatabaseQueue(path: wall.file.path)
        try queue.write { db in
            let parent = try Int64.fetchOne(db, sql: "SELECT id FROM post WHERE objectId = ?", arguments: [post.objectId])!
            for i in 0..<10_000 {
                try db.execute(sql: """
                    INSERT INTO post (objectId, text, latitude, longitude, userId, createdAt, parentId)
                    VALUES (?, ?, ?, ?, (SELECT id FROM user WHERE username = 'voter0'), ?, ?)
                    """, arguments: [String(format: "r%09d", i), "reply \(i)", here.latitude, here.longitude, 1_790_000_000_000 + Int64(i), parent])
            }
            try db.execute(sql: "UPDATE post SET replyCount = 10000 WHERE id = ?", arguments: [parent])
        }
        let page = try wall.thread(post.objectId, skip: 9_950, limit: 100, session: voters[0])
        #expect(page.post.replyCount == 10_000)
        #expect(page.replies.count == 50 && page.replies.first?.text == "reply 9950" && page.replies.last?.text == "reply 9999")
    }

    @Test("the activity feed: replies to my posts and my threads, votes gathered per post, removal and restore, newest first")
    func activity() throws {
        var clockTime = Date(timeIntervalSince1970: 1_790_000_000)
        let clock = Clock(now: clockTime)
        let wall = try temporaryWall(clock: WallClock { clock.now })
        let alice = try wall.signUp(username: "alice", password: "pw", name: nil)
        let bob = try wall.signUp(username: "bob", password: "pw", name: nil)
        let carol = try wall.signUp(username: "carol", password: "pw", name: nil)
        let mod = try wall.signUp(username: "mod", password: "pw", name: nil)
        try wall.setModerator("mod", true, masterKey: nil)
        func tick() { clockTime += 60; clock.now = clockTime }
        let mine = try wall.createPost(text: "Mine", at: here, session: alice, requestId: "1")
        let carols = try wall.createPost(text: "Carol's", at: here, session: carol, requestId: "2")
        tick(); _ = try wall.vote(.up, on: mine.objectId, from: here, radius: radius, session: bob)
        tick(); _ = try wall.vote(.down, on: mine.objectId, from: here, radius: radius, session: carol)
        tick(); _ = try wall.reply(to: carols.objectId, text: "alice in carol's thread", at: here, radius: radius, session: alice)
        tick(); _ = try wall.reply(to: carols.objectId, text: "bob in carol's thread", at: here, radius: radius, session: bob)
        tick(); _ = try wall.reply(to: mine.objectId, text: "bob on mine", at: here, radius: radius, session: bob)
        tick(); _ = try wall.moderate(mine.objectId, .remove, session: mod)
        tick(); _ = try wall.moderate(mine.objectId, .restore, session: mod)
        let feed = try wall.activity(since: nil, limit: 100, session: alice)
        #expect(feed.map(\.kind) == [.restored, .removed, .reply, .reply, .votes])
        #expect(feed.map { $0.reply?.text } == [nil, nil, "bob on mine", "bob in carol's thread", nil])
        #expect(feed[4].up == 1 && feed[4].down == 1 && feed[4].post.objectId == mine.objectId)
        #expect(feed == feed.sorted { $0.time > $1.time })
        let later = try wall.activity(since: feed[2].time, limit: 100, session: alice)
        #expect(later.map(\.kind) == [.restored, .removed])
        #expect(try wall.activity(since: nil, limit: 2, session: alice).count == 2)
        // Bob replied in carol's thread: alice's reply there is his news too; his own replies are not.
        #expect(try wall.activity(since: nil, limit: 100, session: bob).map { $0.reply?.text } == ["alice in carol's thread"])
    }

    @Test("200 accounts, 2,000 votes and 500 replies at once: the counters equal a recount, no vote doubled")
    func concurrency() throws {
        let wall = try temporaryWall()
        // No post is removed on the way, so that every vote and reply counts.
        _ = try wall.setConfig(CommunityRules.hideScoreKey, to: .number(-1_000_000), masterKey: nil)
        let authors = try (0..<10).map { try wall.signUp(username: "author\($0)", password: "pw", name: nil) }
        let posts = try authors.enumerated().map { i, session in
            try wall.createPost(text: "post \(i)", at: here, session: session, requestId: "p\(i)")
        }
        let voters = try (0..<200).map { try wall.signUp(username: "voter\($0)", password: "pw", name: nil) }
        // Eight connections, as eight processes would open the file (each serialises its own users:
        // GRDB's queue; the votes and replies use none of a wall's caches).
        nonisolated(unsafe) let walls = try (0..<8).map { _ in try EmbeddedWall(file: wall.file) }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 2_500) { i in
            var random = SeededGenerator(seed: UInt64(i))
            let voter = voters[Int(random.next() % 200)]
            let post = posts[Int(random.next() % 10)]
            do {
                if i % 5 == 0 {
                    _ = try walls[i % 8].reply(to: post.objectId, text: "reply \(i)", at: here, radius: radius, session: voter)
                } else {
                    let vote = [Vote.up, .down, .none][Int(random.next() % 3)]
                    _ = try walls[i % 8].vote(vote, on: post.objectId, from: here, radius: radius, session: voter)
                }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        let queue = try DatabaseQueue(path: wall.file.path)
        try queue.read { db in
            let scores = try Row.fetchAll(db, sql: """
                SELECT p.score, coalesce((SELECT sum(value) FROM activity WHERE postId = p.id AND type = 'vote'), 0),
                       p.replyCount, (SELECT count(*) FROM post r WHERE r.parentId = p.id),
                       (SELECT count(*) FROM activity WHERE postId = p.id AND type = 'reply')
                FROM post p WHERE p.parentId IS NULL
                """)
            #expect(scores.count == 10)
            for row in scores {
                #expect(row[0] as Int == row[1] as Int)
                #expect(row[2] as Int == row[3] as Int && row[3] as Int == row[4] as Int)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM post WHERE parentId IS NOT NULL") == 500)
            let doubled = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM (SELECT 1 FROM activity WHERE type = 'vote' GROUP BY postId, fromUserId HAVING count(*) > 1)
                """)
            #expect(doubled == 0)
        }
    }
}

/// A clock a test moves.
private final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var time: Date
    init(now: Date) { time = now }
    var now: Date {
        get { lock.withLock { time } }
        set { lock.withLock { time = newValue } }
    }
}

/// Failures gathered from many threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
