import Foundation
import TestSupport
import Testing

/// The outbox against a real anywall-server: what the server refuses for the post's sake is set
/// aside and can be sent again or dropped; what it refuses for the set-up keeps every post waiting.
@Suite("anywall outbox")
struct OutboxCommandTests {
    private struct Setup {
        let box: Sandbox
        let server: WallServer
        func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Sandbox.Run {
            try box.run(arguments, environment: Sandbox.parseEnvironment(server.parseURL).merging(environment) { $1 })
        }
        /// Sets the server's own config, as its keeper would.
        func setMaxCharacters(_ count: Int) throws {
            let answer = try server.send("PUT", "/config", headers: WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 },
                                         json: ["params": ["postMaxCharacterCount": count]])
            precondition(answer.status == 200, "\(answer)")
        }
        var serverTexts: [String] {
            get throws {
                let posts = try server.send("GET", "/classes/Posts", query: ["order": "createdAt"]).json["results"] as? [[String: Any]]
                return (posts ?? []).compactMap { $0["text"] as? String }
            }
        }
    }

    private func setUp() throws -> Setup {
        let box = try Sandbox()
        let setup = Setup(box: box, server: try WallServer(store: box.home.appendingPathComponent("server-wall.sqlite")))
        #expect(try box.run(["signup", "--username", "alice", "--password-stdin"], input: "pw-alice\n",
                            environment: Sandbox.parseEnvironment(setup.server.parseURL)).status == Exit.success)
        return setup
    }

    @Test("a post the server refuses is set aside with the reason, listed, sent again after the fix; one can be dropped")
    func refusedPostSetAsideThenRetried() throws {
        let setup = try setUp()
        setup.server.stop()
        #expect(try setup.run(["post", "short", "--at", "40,-74"]).status == Exit.success)
        #expect(try setup.run(["post", "rather longer than ten", "--at", "40,-74"]).status == Exit.success)
        #expect(try setup.run(["post", "after it", "--at", "40,-74"]).status == Exit.success)
        try setup.server.start()
        try setup.setMaxCharacters(10)

        let delivery = try setup.run(["whoami"])
        #expect(delivery.stderr.contains("was refused") && delivery.stderr.contains("refused the post"), "\(delivery)")
        #expect(try setup.serverTexts == ["short", "after it"])
        let listing = try setup.run(["outbox", "show", "--json"])
        let json = listing.json as? [String: Any]
        let aside = (json?["setAside"] as? [[String: Any]]) ?? []
        #expect(aside.count == 1 && aside.first?["text"] as? String == "rather longer than ten", "\(listing)")
        #expect((aside.first?["reason"] as? String)?.contains("refused the post") == true, "\(listing)")
        #expect((json?["waiting"] as? [Any])?.isEmpty == true)
        let table = try setup.run(["outbox"])
        #expect(table.stdout.hasPrefix("set aside  ") && table.stdout.contains("refused: "), "\(table)")

        try setup.setMaxCharacters(140)
        let retry = try setup.run(["outbox", "retry"])
        #expect(retry.status == Exit.success && retry.stderr.contains("1 post back in the outbox"), "\(retry)")
        #expect(try setup.serverTexts == ["short", "after it", "rather longer than ten"])
        #expect(try setup.run(["outbox"]).stderr.contains("The outbox is empty."))

        setup.server.stop()
        #expect(try setup.run(["post", "never mind", "--at", "40,-74"]).status == Exit.success)
        let waiting = try #require(((try setup.run(["outbox", "show", "--json"]).json as? [String: Any])?["waiting"] as? [[String: Any]])?.first)
        let id = try #require(waiting["id"] as? String)
        #expect(try setup.run(["outbox", "drop", "zzzz"]).status == Exit.inputRejected)
        let drop = try setup.run(["outbox", "drop", String(id.prefix(8))])
        #expect(drop.status == Exit.success && drop.stderr.contains("never mind"), "\(drop)")
        #expect(try setup.run(["outbox"]).stderr.contains("The outbox is empty."))
    }

    @Test("a refusal of the set-up (a wrong application id) keeps every post waiting, and says so")
    func setUpRefusalKeepsPostsWaiting() throws {
        let setup = try setUp()
        setup.server.stop()
        #expect(try setup.run(["post", "one", "--at", "40,-74"]).status == Exit.success)
        #expect(try setup.run(["post", "two", "--at", "40,-74"]).status == Exit.success)
        try setup.server.start()
        let wrong = try setup.run(["whoami"], environment: ["PARSE_APPLICATION_ID": "wrong-app"])
        #expect(wrong.stderr.contains("2 posts still wait in the outbox") && wrong.stderr.contains("application id"), "\(wrong)")
        let waiting = (try setup.run(["outbox", "show", "--json"]).json as? [String: Any])?["waiting"] as? [Any]
        #expect(waiting?.count == 2)
        #expect(try setup.serverTexts.isEmpty)
        _ = try setup.run(["whoami"])
        #expect(try setup.serverTexts == ["one", "two"])
    }
}
