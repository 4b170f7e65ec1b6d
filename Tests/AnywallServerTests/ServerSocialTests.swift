import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

/// The social layer over anywall-server's REST API, as a Parse app keeps it: replies are `Posts`
/// with a `parent`, votes and reports are `Activity` rows, and the server moves the counters and
/// applies `CommunityRules` as a Cloud Code `beforeSave`/`afterSave` would, the same on both of
/// its stores.
@Suite("anywall-server: replies, votes, reports and moderators through Posts and Activity")
struct ServerSocialTests {
    private let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-social-\(UUID().uuidString).sqlite")

    private static func session(_ token: String) -> [String: String] {
        WallServer.keyHeaders.merging(["X-Parse-Session-Token": token]) { $1 }
    }

    private static func point(_ latitude: Double, _ longitude: Double) -> [String: Any] {
        ["__type": "GeoPoint", "latitude": latitude, "longitude": longitude]
    }

    private static func pointer(_ className: String, _ objectId: String) -> [String: Any] {
        ["__type": "Pointer", "className": className, "objectId": objectId]
    }

    /// The objectIds a `$nearSphere` find around (10, 20) answers `token`'s user (nobody's without one): the nearest search.
    /// The posts around (10, 20), nearest first, as the CLI's `nearby` asks (thread posts only), or
    /// as a stock Parse client asks (`threadsOnly` false: replies are posts too).
    private static func nearest(_ server: WallServer, token: String?, threadsOnly: Bool = true) throws -> [String] {
        let near = #""location":{"$nearSphere":{"__type":"GeoPoint","latitude":10,"longitude":20}}"#
        let answer = try server.send("GET", "/classes/Posts", query: ["where": threadsOnly ? #"{\#(near),"parent":{"$exists":false}}"# : "{\(near)}"],
                                     headers: token.map(session) ?? WallServer.keyHeaders)
        return (answer.json["results"] as? [[String: Any]] ?? []).compactMap { $0["objectId"] as? String }
    }

    private static func refusal(_ answer: WallServer.Answer) -> String {
        "\(answer.status) \(answer.json["code"] as? Int ?? 0) \(answer.json["error"] as? String ?? answer.text)"
    }

    private static func vote(_ server: WallServer, _ post: String, _ value: Any, by token: String,
                             at place: [String: Any] = point(10, 20)) throws -> WallServer.Answer {
        try server.send("POST", "/classes/Activity", headers: session(token),
                        json: ["type": "vote", "post": pointer("Posts", post), "value": value, "location": place])
    }

    @Test("votes: one per account, changed by PUT, withdrawn by DELETE, never the author's; the counters are the wall's; at exactly hideScore the post is removed for all but its author")
    func votes() throws {
        let server = try WallServer(store: file)
        let author = try server.signUp("author")
        let id = try server.post("vote on me", latitude: 10, longitude: 20, token: author.token).json["objectId"] as! String
        let voters = try (0..<5).map { try server.signUp("voter\($0)") }
        let first = try Self.vote(server, id, 1, by: voters[0].token)
        #expect(first.status == 201, "\(first)")
        let again = try Self.vote(server, id, 1, by: voters[0].token)
        #expect(again.json["objectId"] as? String == first.json["objectId"] as? String, "a second vote replaces the first: \(again)")
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["score"] as? Int == 1)

        let changed = try server.send("PUT", "/classes/Activity/\(first.json["objectId"] as! String)", headers: Self.session(voters[0].token),
                                      json: ["value": -1, "location": Self.point(10, 20)])
        #expect(changed.status == 200, "\(changed)")
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["score"] as? Int == -1)
        let withdrawn = try server.send("DELETE", "/classes/Activity/\(first.json["objectId"] as! String)", headers: Self.session(voters[0].token))
        #expect(withdrawn.status == 200, "\(withdrawn)")
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["score"] == nil, "back to no score")

        #expect(Self.refusal(try Self.vote(server, id, 1, by: author.token)) == "400 142 you cannot vote on your own post")
        #expect(Self.refusal(try Self.vote(server, id, 2, by: voters[1].token)) == "400 142 a vote's value is 1 or -1")
        let far = try Self.vote(server, id, 1, by: voters[1].token, at: Self.point(11, 20))
        #expect(far.status == 400 && (far.json["error"] as? String ?? "").contains("beyond the filter radius"), "\(far)")
        let written = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(author.token), json: ["score": 100])
        #expect(Self.refusal(written) == "400 119 Clients aren't allowed to manually update score.")
        let incremented = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(voters[1].token),
                                          json: ["replyCount": ["__op": "Increment", "amount": 1]])
        #expect(Self.refusal(incremented) == "400 119 Clients aren't allowed to manually update replyCount.")

        for voter in voters.prefix(4) { #expect(try Self.vote(server, id, -1, by: voter.token).status == 201) }
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["score"] as? Int == -4, "at -4 the post is still up")
        #expect(try Self.vote(server, id, -1, by: voters[4].token).status == 201)
        #expect(try server.send("GET", "/classes/Posts/\(id)").status == 404, "at exactly -5 it is gone for others")
        let found = try server.send("GET", "/classes/Posts", query: ["where": #"{"text":"vote on me"}"#], headers: Self.session(voters[0].token))
        #expect((found.json["results"] as? [Any])?.isEmpty == true, "\(found)")
        let own = try server.send("GET", "/classes/Posts/\(id)", headers: Self.session(author.token))
        #expect(own.json["removed"] as? String == "votes" && own.json["score"] as? Int == -5, "its author sees why: \(own)")
        #expect(try Self.nearest(server, token: voters[0].token).isEmpty && Self.nearest(server, token: nil).isEmpty, "the nearest search skips it")
        #expect(try Self.nearest(server, token: author.token) == [id], "but for its author")

        let mine = try server.send("GET", "/classes/Activity", query: ["where": #"{"type":"vote"}"#], headers: Self.session(voters[0].token))
        let myRows = mine.json["results"] as? [[String: Any]] ?? []
        #expect(myRows.count == 1 && (myRows.first?["fromUser"] as? [String: Any])?["objectId"] as? String == voters[0].objectId, "\(mine)")
        let onMine = try server.send("GET", "/classes/Activity", query: ["where": #"{"type":"vote"}"#], headers: Self.session(author.token))
        let authorRows = onMine.json["results"] as? [[String: Any]] ?? []
        #expect(authorRows.count == 5 && authorRows.allSatisfy { $0["fromUser"] == nil && $0["ACL"] == nil }, "the author counts votes, never voters: \(onMine)")
    }

    @Test("replies: a Posts object with a parent, from within reach, one level deep; replyCount moves with it and with its deletion; a thread is found by parent")
    func replies() throws {
        let server = try WallServer(store: file)
        let author = try server.signUp("author")
        let replier = try server.signUp("replier")
        let id = try server.post("a thread", latitude: 10, longitude: 20, token: author.token).json["objectId"] as! String
        func reply(_ text: String, to parent: String, at place: [String: Any] = Self.point(10.001, 20)) throws -> WallServer.Answer {
            try server.send("POST", "/classes/Posts", headers: Self.session(replier.token),
                            json: ["text": text, "location": place, "parent": Self.pointer("Posts", parent)])
        }
        let first = try reply("first", to: id)
        #expect(first.status == 201, "\(first)")
        let replyId = first.json["objectId"] as! String
        let second = try reply("second", to: id).json["objectId"] as? String ?? "none"
        let deeper = try reply("deeper", to: replyId)
        #expect(Self.refusal(deeper) == "400 142 \(replyId) is a reply: reply to its thread's post \(id) instead")
        let far = try reply("far", to: id, at: Self.point(12, 20))
        #expect(far.status == 400 && (far.json["error"] as? String ?? "").contains("beyond the filter radius"), "\(far)")
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["replyCount"] as? Int == 2)
        #expect(try Self.nearest(server, token: replier.token) == [id], "the nearest search lists posts, not replies")
        #expect(try Set(Self.nearest(server, token: replier.token, threadsOnly: false)) == [id, replyId, second],
                "a find by place without `parent` finds the replies too, as Parse does")
        #expect(try Self.nearest(server, token: nil, threadsOnly: false) == Self.nearest(server, token: replier.token, threadsOnly: false),
                "signed in or not, the same posts and replies, nearest first (one statement on PostgreSQL for nobody signed in)")

        let thread = try server.send("GET", "/classes/Posts", query: ["where": #"{"parent":{"__type":"Pointer","className":"Posts","objectId":"\#(id)"}}"#,
                                                                      "order": "createdAt"])
        let texts = (thread.json["results"] as? [[String: Any]] ?? []).map { $0["text"] as? String }
        #expect(texts == ["first", "second"], "\(thread)")
        let topLevel = try server.send("GET", "/classes/Posts", query: ["where": #"{"parent":{"$exists":false}}"#])
        #expect((topLevel.json["results"] as? [[String: Any]] ?? []).map { $0["objectId"] as? String } == [id], "\(topLevel)")

        #expect(try server.send("DELETE", "/classes/Posts/\(replyId)", headers: Self.session(replier.token)).status == 200)
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["replyCount"] as? Int == 1, "a deleted reply leaves the count")
        let notice = try server.send("GET", "/classes/Activity", query: ["where": #"{"type":"reply"}"#], headers: Self.session(author.token))
        #expect((notice.json["results"] as? [[String: Any]] ?? []).count == 1, "the author is told of the reply left: \(notice)")
        let forged = try server.send("POST", "/classes/Activity", headers: Self.session(replier.token),
                                     json: ["type": "reply", "post": Self.pointer("Posts", id)])
        #expect(Self.refusal(forged).hasPrefix("400 119 reply notices are the wall's own"))
    }

    @Test("reports: at exactly reportLimit distinct accounts the post is removed; a report is read by its reporter and the moderators only; a moderator restores, and it stays up")
    func reportsAndModerators() throws {
        let server = try WallServer(store: file)
        let author = try server.signUp("author")
        let reporters = try (0..<3).map { try server.signUp("reporter\($0)") }
        let moderator = try server.signUp("mod")
        try TestStore.grantModerator("mod", on: file)
        let id = try server.post("reported", latitude: 10, longitude: 20, token: author.token).json["objectId"] as! String
        func report(by token: String, note: Any = "rude") throws -> WallServer.Answer {
            try server.send("POST", "/classes/Activity", headers: Self.session(token),
                            json: ["type": "report", "post": Self.pointer("Posts", id), "reason": "offensive", "note": note, "location": Self.point(10, 20)])
        }
        let huge = try report(by: reporters[0].token, note: String(repeating: "x", count: 100_000))
        #expect(huge.status == 413, "a 100 KB note is past the server's 64 KiB body: \(huge)")
        let long = try report(by: reporters[0].token, note: String(repeating: "x", count: 501))
        #expect(Self.refusal(long) == "400 142 the report's note is too long: at most 500 characters")
        #expect(try report(by: reporters[0].token).status == 201)
        #expect(try report(by: reporters[0].token).status == 201, "a second report by one account counts once")
        #expect(try report(by: reporters[1].token).status == 201)
        #expect(try server.send("GET", "/classes/Posts/\(id)").status == 200, "two accounts: still up")

        let own = try server.send("GET", "/classes/Activity", query: ["where": #"{"type":"report"}"#], headers: Self.session(reporters[0].token))
        #expect((own.json["results"] as? [[String: Any]] ?? []).count == 1, "a reporter reads their own report: \(own)")
        let others = try server.send("GET", "/classes/Activity", query: ["where": #"{"type":"report"}"#], headers: Self.session(author.token))
        #expect((others.json["results"] as? [[String: Any]] ?? []).isEmpty, "the author reads none: \(others)")
        let all = try server.send("GET", "/classes/Activity", query: ["where": #"{"type":"report"}"#], headers: Self.session(moderator.token))
        #expect((all.json["results"] as? [[String: Any]] ?? []).count == 2, "a moderator reads every one: \(all)")

        #expect(try report(by: reporters[2].token).status == 201)
        #expect(try server.send("GET", "/classes/Posts/\(id)").status == 404, "three accounts: removed")
        let restoredByAuthor = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(author.token), json: ["removed": ["__op": "Delete"]])
        #expect(Self.refusal(restoredByAuthor) == "400 119 Clients aren't allowed to manually update removed.")
        let restored = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(moderator.token), json: ["removed": ["__op": "Delete"]])
        #expect(restored.status == 200, "\(restored)")
        let voters = try (0..<6).map { try server.signUp("down\($0)") }
        for voter in voters { #expect(try Self.vote(server, id, -1, by: voter.token).status == 201) }
        let after = try server.send("GET", "/classes/Posts/\(id)")
        #expect(after.status == 200 && after.json["score"] as? Int == -6, "restored, it stays up: \(after)")
        let removed = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(moderator.token), json: ["removed": "moderator"])
        let gone = try server.send("GET", "/classes/Posts/\(id)")
        #expect(removed.status == 200 && gone.status == 404, "\(removed)")
    }

    /// One account's part of the crowd: its votes and replies, in the order it sends them.
    private enum Act: Sendable {
        case vote(post: Int, value: Int)
        case reply(post: Int)
    }

    @Test("2,000 votes from 200 accounts and 500 replies at once: each post's score is the sum of each account's last vote on it, its replyCount its replies, and no account has two votes on a post")
    func crowd() throws {
        // 200 sign-ups from one address: past the password gate's budget for one.
        let server = try WallServer(store: file, arguments: ["--password-attempts", "1000"])
        let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }
        // At the default -5 a random crowd would remove posts, and the votes after it would be refused.
        let config = try server.send("PUT", "/config", headers: master, json: ["params": ["hideScore": -1_000_000]])
        #expect(config.status == 200, "\(config)")
        let author = try server.signUp("author")
        let posts = try (0..<5).map { try server.post("crowded \($0)", latitude: 10, longitude: 20, token: author.token).json["objectId"] as! String }
        let accountCount = 200, threads = 32
        let signedUp = Mutex<[Int: Result<(token: String, objectId: String), any Error>]>([:])
        Self.onThreads(threads) { thread in
            for index in stride(from: thread, to: accountCount, by: threads) {
                let account = Result { try server.signUp("crowd\(index)") }
                signedUp.withLock { $0[index] = account }
            }
        }
        let accounts = try signedUp.withLock { $0 }.mapValues { try $0.get() }

        // Ten votes an account on five posts: each votes at least twice on some post, often with a
        // change of mind. Each account's acts go in order, the accounts' all at once.
        var acts = Array(repeating: [Act](), count: accountCount)
        for index in 0..<2_000 { acts[index % accountCount].append(.vote(post: Int.random(in: 0..<posts.count), value: Bool.random() ? 1 : -1)) }
        for index in 0..<500 { acts[index % accountCount].append(.reply(post: Int.random(in: 0..<posts.count))) }
        acts = acts.map { $0.shuffled() }
        let plan = acts
        let failures = Mutex<[String]>([])
        Self.onThreads(threads) { thread in
            for index in stride(from: thread, to: accountCount, by: threads) {
                let token = accounts[index]!.token
                for act in plan[index] {
                    let answer: WallServer.Answer?
                    switch act {
                    case .vote(let post, let value):
                        answer = try? Self.vote(server, posts[post], value, by: token)
                    case .reply(let post):
                        answer = try? server.send("POST", "/classes/Posts", headers: Self.session(token),
                                                  json: ["text": "a reply", "location": Self.point(10.001, 20), "parent": Self.pointer("Posts", posts[post])])
                    }
                    if answer?.status != 201 { failures.withLock { $0.append("\(act): \(answer.map(\.description) ?? "no answer")") } }
                }
            }
        }
        let failed = failures.withLock { $0 }
        #expect(failed.isEmpty, "every vote and reply was taken: \(failed.count), \(failed.prefix(3))")

        var lastVotes = Array(repeating: [Int: Int](), count: accountCount)
        var expectedScores = Array(repeating: 0, count: posts.count), expectedReplies = Array(repeating: 0, count: posts.count)
        for (index, sequence) in plan.enumerated() {
            for act in sequence {
                switch act {
                case .vote(let post, let value): lastVotes[index][post] = value
                case .reply(let post): expectedReplies[post] += 1
                }
            }
            for (post, value) in lastVotes[index] { expectedScores[post] += value }
        }
        for (index, post) in posts.enumerated() {
            let read = try server.send("GET", "/classes/Posts/\(post)")
            #expect(read.json["score"] as? Int ?? 0 == expectedScores[index] && read.json["replyCount"] as? Int ?? 0 == expectedReplies[index],
                    "post \(index): score \(expectedScores[index]), \(expectedReplies[index]) replies expected: \(read)")
            let thread = try server.send("GET", "/classes/Posts", query: ["where": #"{"parent":{"__type":"Pointer","className":"Posts","objectId":"\#(post)"}}"#,
                                                                          "count": "1", "limit": "0"])
            #expect(thread.json["count"] as? Int == expectedReplies[index], "post \(index)'s thread: \(thread)")
        }
        // Each account reads its own votes: one row a post it voted on, holding its last vote.
        let sentLast = lastVotes
        let mismatches = Mutex<[String]>([])
        Self.onThreads(threads) { thread in
            for index in stride(from: thread, to: accountCount, by: threads) {
                let mine = try? server.send("GET", "/classes/Activity", query: ["where": #"{"type":"vote"}"#], headers: Self.session(accounts[index]!.token))
                let rows = mine?.json["results"] as? [[String: Any]] ?? []
                var held: [Int: [Int]] = [:]
                for row in rows {
                    guard let post = ((row["post"] as? [String: Any])?["objectId"] as? String).flatMap(posts.firstIndex(of:)) else { continue }
                    held[post, default: []].append(row["value"] as? Int ?? 0)
                }
                if held != sentLast[index].mapValues({ [$0] }) {
                    mismatches.withLock { $0.append("crowd\(index) holds \(held), sent last \(sentLast[index]): \(mine.map(\.description) ?? "no answer")") }
                }
            }
        }
        let wrong = mismatches.withLock { $0 }
        #expect(wrong.isEmpty, "\(wrong.count) accounts: \(wrong.prefix(3))")
    }

    /// Runs `body` on `count` threads of its own at once (each given its number), until all end:
    /// requests that block, many in flight.
    private static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            Thread {
                body(index)
                done.leave()
            }.start()
        }
        done.wait()
    }
}
