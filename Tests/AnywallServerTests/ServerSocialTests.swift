import EmbeddedStore
import Foundation
import TestSupport
import Testing
import WallDomain

/// The social layer over anywall-server's REST API, as a Parse app keeps it: replies are `Posts`
/// with a `parent`, votes and reports are `Activity` rows, and the server moves the counters and
/// applies `CommunityRules` as a Cloud Code `beforeSave`/`afterSave` would. On PostgreSQL the
/// store refuses them with 108 until it keeps them (issue 33's next part).
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
        guard TestStore.current == .sqlite else {
            let refused = try Self.vote(server, id, 1, by: author.token)
            #expect(Self.refusal(refused) == "400 108 this anywall-server's store does not keep replies, votes and reports yet")
            return
        }
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

        let mine = try server.send("GET", "/classes/Activity", query: ["where": #"{"type":"vote"}"#], headers: Self.session(voters[0].token))
        let myRows = mine.json["results"] as? [[String: Any]] ?? []
        #expect(myRows.count == 1 && (myRows.first?["fromUser"] as? [String: Any])?["objectId"] as? String == voters[0].objectId, "\(mine)")
        let onMine = try server.send("GET", "/classes/Activity", query: ["where": #"{"type":"vote"}"#], headers: Self.session(author.token))
        let authorRows = onMine.json["results"] as? [[String: Any]] ?? []
        #expect(authorRows.count == 5 && authorRows.allSatisfy { $0["fromUser"] == nil && $0["ACL"] == nil }, "the author counts votes, never voters: \(onMine)")
    }

    @Test("replies: a Posts object with a parent, from within reach, one level deep; replyCount moves with it and with its deletion; a thread is found by parent")
    func replies() throws {
        guard TestStore.current == .sqlite else { return try votes() }
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
        #expect(try reply("second", to: id).status == 201)
        let deeper = try reply("deeper", to: replyId)
        #expect(Self.refusal(deeper) == "400 142 \(replyId) is a reply: reply to its thread's post \(id) instead")
        let far = try reply("far", to: id, at: Self.point(12, 20))
        #expect(far.status == 400 && (far.json["error"] as? String ?? "").contains("beyond the filter radius"), "\(far)")
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["replyCount"] as? Int == 2)

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
        guard TestStore.current == .sqlite else { return try votes() }
        let server = try WallServer(store: file)
        let author = try server.signUp("author")
        let reporters = try (0..<3).map { try server.signUp("reporter\($0)") }
        let moderator = try server.signUp("mod")
        try EmbeddedWall(file: file).setModerator("mod", true, masterKey: nil)
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
}
