import Foundation
import TestSupport
import Testing

@Suite("reply, thread, vote, report, delete, activity, moderate and nearby --sort")
struct SocialCommandTests {
    static let here = ["--at", "37.7793,-122.4193"]
    /// 1.1 km north: beyond the default filter radius.
    static let far = ["--at", "37.7892,-122.4193"]

    private func logIn(_ box: Sandbox, _ username: String) throws {
        let run = try box.run(["login", "--username", username, "--password-stdin"], input: "pw-\(username)\n")
        #expect(run.status == Exit.success, "\(run)")
    }

    /// alice's post at `here`, and bob, carol and dave signed up; bob is logged in.
    private func wall(_ kind: WallKind = .embedded) throws -> (box: Sandbox, post: String) {
        let box = try Sandbox(kind)
        try box.signUp("alice")
        let post = try box.run(["post", "Free coffee"] + Self.here).stdout.trimmingCharacters(in: .newlines)
        for name in ["bob", "carol", "dave"] { try box.signUp(name) }
        try logIn(box, "bob")
        return (box, post)
    }

    @Test("a vote and a reply show in nearby's JSON (score, replyCount, myVote, parent) and in the thread", arguments: WallKind.allCases)
    func voteAndReply(_ kind: WallKind) throws {
        let (box, post) = try wall(kind)
        let vote = try box.run(["vote", post, "up"] + Self.here)
        #expect(vote.status == Exit.success && vote.stdout == "score 1 (your vote: up)\n", "\(vote)")
        let reply = try box.run(["reply", post, "Where exactly?"] + Self.here)
        #expect(reply.status == Exit.success, "\(reply)")
        let listed = try box.run(["nearby", "--json"] + Self.here).json as! [[String: Any]]
        #expect(listed.count == 1)
        #expect(listed[0]["score"] as? Int == 1 && listed[0]["replyCount"] as? Int == 1 && listed[0]["myVote"] as? String == "up")
        #expect(listed[0]["parent"] is NSNull && listed[0]["removed"] == nil)
        let thread = try box.run(["thread", post, "--json"] + Self.here).json as! [[String: Any]]
        #expect(thread.map { $0["text"] as? String } == ["Free coffee", "Where exactly?"])
        #expect(thread[1]["parent"] as? String == post)
        // From afar the thread shows, its text does not.
        let afar = try box.run(["thread", post, "--json"] + Self.far).json as! [[String: Any]]
        #expect(afar.count == 2 && afar.allSatisfy { $0["text"] is NSNull && $0["visible"] as? Bool == false })
        #expect(afar[0]["replyCount"] as? Int == 1)
        let table = try box.run(["nearby"] + Self.here)
        #expect(table.stdout.hasPrefix("DISTANCE  AUTHOR  AGE       SCORE  TEXT"), "\(table)")
        #expect(table.stdout.contains("1      Free coffee (1 reply)\n"), "\(table)")
    }

    @Test("refusals: from beyond the radius, a vote of 2, a reply's reply, a 100 KB note, an own vote; each one line, exit 65", arguments: WallKind.allCases)
    func refusals(_ kind: WallKind) throws {
        let (box, post) = try wall(kind)
        let reply = try box.run(["reply", post, "First"] + Self.here).stdout.trimmingCharacters(in: .newlines)
        let note = String(repeating: "x", count: 100_000)
        let cases: [[String]] = [
            ["reply", post, "From afar"] + Self.far,
            ["vote", post, "up"] + Self.far,
            ["report", post, "--reason", "spam"] + Self.far,
            ["vote", post, "2"] + Self.here,
            ["reply", reply, "Nested"] + Self.here,
            ["report", post, "--reason", "spam", "--note", note] + Self.here,
            ["report", post, "--reason", "boring"] + Self.here,
            ["vote", reply, "up"] + Self.here,
            ["vote", "NoSuchPost", "up"] + Self.here,
        ]
        for arguments in cases {
            let run = try box.run(arguments)
            #expect(run.status == Exit.inputRejected, "\(arguments.prefix(4)): \(run)")
            #expect(run.stderr.hasPrefix("anywall: ") && run.stderr.split(separator: "\n").count == 1, "\(run)")
            #expect(run.stdout.isEmpty)
        }
        let sorted = try box.run(["nearby", "--sort", "best"] + Self.here)
        #expect(sorted.status == Exit.inputRejected && sorted.stderr.contains("near, new, hot, top"), "\(sorted)")
    }

    @Test("downvoted to -5 the post is gone for others; its author sees it removed; a moderator restores it for good", arguments: WallKind.allCases)
    func removalAndModeration(_ kind: WallKind) throws {
        let (box, post) = try wall(kind)
        let voters = ["bob", "carol", "dave", "erin", "frank", "grace"]
        for name in voters.dropFirst(3) { try box.signUp(name) }
        for name in voters.prefix(5) {
            try logIn(box, name)
            #expect(try box.run(["vote", post, "down"] + Self.here).status == Exit.success)
        }
        try logIn(box, "grace")
        #expect(try box.run(["nearby", "--json"] + Self.here).stdout == "[]\n")
        try logIn(box, "alice")
        let mine = try box.run(["nearby", "--json"] + Self.here).json as! [[String: Any]]
        #expect(mine.count == 1 && mine[0]["removed"] as? String == "votes" && mine[0]["score"] as? Int == -5)
        #expect(try box.run(["nearby"] + Self.here).stdout.contains("[removed: votes] Free coffee"))
        let notModerator = try box.run(["moderate", "restore", post])
        #expect(notModerator.status == Exit.authFailed && notModerator.stderr.contains("not a moderator"), "\(notModerator)")
        let granted = try box.run(["moderate", "grant", "carol"] + box.adminArguments)
        #expect(granted.status == Exit.success, "\(granted)")
        try logIn(box, "carol")
        let queue = try box.run(["moderate", "queue", "--json"]).json as! [[String: Any]]
        #expect(queue.count == 1 && queue[0]["removed"] as? String == "votes")
        let restored = try box.run(["moderate", "restore", post])
        #expect(restored.status == Exit.success, "\(restored)")
        try logIn(box, "grace")
        #expect(try box.run(["vote", post, "down"] + Self.here).status == Exit.success)
        #expect((try box.run(["nearby", "--json"] + Self.here).json as! [[String: Any]]).count == 1, "a restored post stays up")
        try logIn(box, "alice")
        let feed = try box.run(["activity", "--json"]).json as! [[String: Any]]
        #expect(feed.map { $0["type"] as? String } == ["votes", "restored", "removed"])
        #expect(feed[0]["down"] as? Int == 6 && feed[0]["up"] as? Int == 0)
        #expect(try box.run(["activity", "--json"]).stdout == "[]\n", "what was shown is not shown again")
        #expect((try box.run(["activity", "--since", "all", "--json"]).json as! [[String: Any]]).count == 3)
        #expect(try box.run(["activity", "--since", "yesterday"]).status == Exit.inputRejected)
        let whoami = try box.run(["whoami", "--json"]).json as! [String: Any]
        #expect(whoami["karma"] as? Int == -6)
    }

    @Test("a session ended elsewhere does not stop nearby or thread: they list as for anyone", arguments: WallKind.allCases)
    func endedSession(_ kind: WallKind) throws {
        let (box, post) = try wall(kind)
        // bob's session ends on the wall; his session file is put back, as another machine's would stay.
        let saved = try Data(contentsOf: box.sessionFile)
        #expect(try box.run(["logout"]).status == Exit.success)
        try saved.write(to: box.sessionFile)
        let listed = try box.run(["nearby", "--json"] + Self.here)
        #expect(listed.status == Exit.success && (listed.json as! [[String: Any]]).count == 1, "\(listed)")
        #expect(try box.run(["thread", post] + Self.here).status == Exit.success)
        #expect(try box.run(["vote", post, "up"] + Self.here).status == Exit.authFailed)
    }

    @Test("delete: your own post goes with its replies; another's is refused", arguments: WallKind.allCases)
    func delete(_ kind: WallKind) throws {
        let (box, post) = try wall(kind)
        #expect(try box.run(["reply", post, "Hi"] + Self.here).status == Exit.success)
        #expect(try box.run(["delete", post]).status == Exit.inputRejected)
        try logIn(box, "alice")
        #expect(try box.run(["delete", post]).status == Exit.success)
        #expect(try box.run(["nearby", "--json"] + Self.here).stdout == "[]\n")
        #expect(try box.run(["thread", post] + Self.here).status == Exit.inputRejected)
    }

    @Test("nearby --sort new and top order the posts within the search distance", arguments: WallKind.allCases)
    func sorts(_ kind: WallKind) throws {
        let (box, post) = try wall(kind)
        let older = post
        try logIn(box, "carol")
        let newer = try box.run(["post", "Newer, farther", "--at", "37.7800,-122.4193"]).stdout.trimmingCharacters(in: .newlines)
        #expect(try box.run(["vote", older, "up"] + Self.here).status == Exit.success)
        func order(_ sort: String) throws -> [String] {
            (try box.run(["nearby", "--sort", sort, "--json"] + Self.here).json as! [[String: Any]]).map { $0["objectId"] as! String }
        }
        #expect(try order("near") == [older, newer])
        #expect(try order("new") == [newer, older])
        #expect(try order("top") == [older, newer])
        #expect(try order("hot") == [older, newer])
    }

    @Test("activity: replies to my posts and in the threads I replied in, newest first, never my own", arguments: WallKind.allCases)
    func feedOfReplies(_ kind: WallKind) throws {
        let (box, post) = try wall(kind)
        #expect(try box.run(["reply", post, "Is it still there?"] + Self.here).status == Exit.success)
        try logIn(box, "carol")
        #expect(try box.run(["reply", post, "Gone by noon"] + Self.here).status == Exit.success)
        try logIn(box, "bob")
        let bobs = try box.run(["activity", "--json"]).json as? [[String: Any]] ?? []
        #expect(bobs.map { ($0["reply"] as? [String: Any])?["text"] as? String } == ["Gone by noon"], "carol's reply in bob's thread: \(bobs)")
        try logIn(box, "alice")
        let alices = try box.run(["activity", "--json"]).json as? [[String: Any]] ?? []
        #expect(alices.map { ($0["reply"] as? [String: Any])?["text"] as? String } == ["Gone by noon", "Is it still there?"], "\(alices)")
        #expect(alices.allSatisfy { $0["type"] as? String == "reply" && ($0["post"] as? [String: Any])?["objectId"] as? String == post })
    }

    @Test("report: with or without a note, again with another reason: it counts once, and a moderator reads the last", arguments: WallKind.allCases)
    func reportAgain(_ kind: WallKind) throws {
        let (box, post) = try wall(kind)
        let first = try box.run(["report", post, "--reason", "spam"] + Self.here)
        #expect(first.status == Exit.success, "\(first)")
        let again = try box.run(["report", post, "--reason", "offensive", "--note", "Rude words"] + Self.here)
        #expect(again.status == Exit.success, "\(again)")
        #expect(try box.run(["moderate", "grant", "carol"] + box.adminArguments).status == Exit.success)
        try logIn(box, "carol")
        let queue = try box.run(["moderate", "queue", "--json"]).json as? [[String: Any]] ?? []
        let reports = queue.first?["reports"] as? [[String: Any]] ?? []
        #expect(queue.count == 1 && reports.count == 1 && reports.first?["reason"] as? String == "offensive"
                && reports.first?["note"] as? String == "Rude words", "\(queue)")
    }

    @Test("vote: changed from up to down, then withdrawn; a moderator deletes another's post with its replies", arguments: WallKind.allCases)
    func voteChangesAndModeratorDelete(_ kind: WallKind) throws {
        let (box, post) = try wall(kind)
        #expect(try box.run(["vote", post, "up"] + Self.here).stdout == "score 1 (your vote: up)\n")
        #expect(try box.run(["vote", post, "down"] + Self.here).stdout == "score -1 (your vote: down)\n")
        let withdrawn = try box.run(["vote", post, "none"] + Self.here)
        #expect(withdrawn.status == Exit.success && withdrawn.stdout.hasPrefix("score 0"), "\(withdrawn)")
        #expect(try box.run(["reply", post, "A reply"] + Self.here).status == Exit.success)
        #expect(try box.run(["moderate", "grant", "carol"] + box.adminArguments).status == Exit.success)
        try logIn(box, "carol")
        let deleted = try box.run(["delete", post])
        #expect(deleted.status == Exit.success, "\(deleted)")
        #expect(try box.run(["nearby", "--json"] + Self.here).stdout == "[]\n")
        #expect(try box.run(["thread", post] + Self.here).status == Exit.inputRejected)
    }
}
