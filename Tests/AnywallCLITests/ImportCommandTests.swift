import Foundation
import TestSupport
import Testing

@Suite("import")
struct ImportCommandTests {
    @Test("imports a Parse export, keeping ids, dates, authors; a second import changes nothing")
    func parseExport() throws {
        let box = try Sandbox()
        let file = box.home.appendingPathComponent("Posts.json")
        try """
            {"results":[
              {"objectId":"xWMyZ4YEGZ","text":"Free coffee","location":{"__type":"GeoPoint","latitude":37.7793,"longitude":-122.4193},
               "user":{"__type":"Pointer","className":"_User","objectId":"u1","username":"alice","name":"Alice"},
               "createdAt":"2026-11-21T10:00:00.000Z","ACL":{"*":{"read":true}}},
              {"objectId":"abc","text":"Second","location":{"__type":"GeoPoint","latitude":37.78,"longitude":-122.42},
               "user":{"__type":"Pointer","className":"_User","objectId":"u1"},"createdAt":"2026-11-20T09:00:00.000Z"}
            ]}
            """.write(to: file, atomically: true, encoding: .utf8)
        let run = try box.run(["import", file.path])
        #expect(run.status == Exit.success, "\(run)")
        #expect(run.stdout == "imported 2 posts, 0 already present, 1 new user, 0 skipped\n")
        let posts = try box.run(["nearby", "--at", "37.7793,-122.4193", "--json"]).json as! [[String: Any]]
        #expect(posts.map { $0["objectId"] as! String } == ["xWMyZ4YEGZ", "abc"])
        #expect(posts[0]["createdAt"] as? String == "2026-11-21T10:00:00.000Z" && posts[0]["author"] as? String == "Alice")
        #expect(posts[1]["author"] as? String == "Alice")
        #expect(try box.run(["import", file.path]).stdout == "imported 0 posts, 2 already present, 0 new users, 0 skipped\n")
    }

    @Test("records without an objectId are not doubled by a second import: their id comes from what they say")
    func withoutObjectId() throws {
        let box = try Sandbox()
        let input = """
            {"objectId":"a","text":"with an id","location":{"latitude":1,"longitude":1},"author":"ann"}
            {"text":"no id","location":{"latitude":1,"longitude":1.0001},"author":"ann","createdAt":"2026-11-21T10:00:00.000Z"}
            {"text":"no id, no date","location":{"latitude":1,"longitude":1.0002}}
            """
        #expect(try box.run(["import", "-"], input: input).stdout == "imported 3 posts, 0 already present, 1 new user, 0 skipped\n")
        for _ in 1...2 {
            #expect(try box.run(["import", "-"], input: input).stdout == "imported 0 posts, 3 already present, 0 new users, 0 skipped\n")
        }
        let posts = try box.run(["nearby", "--at", "1,1", "--json"]).json as! [[String: Any]]
        #expect(posts.map { $0["text"] as! String } == ["with an id", "no id", "no id, no date"])
        let changed = input.replacingOccurrences(of: "\"no id\"", with: "\"no id, edited\"")
        #expect(try box.run(["import", "-"], input: changed).stdout == "imported 1 post, 2 already present, 0 new users, 0 skipped\n",
                "another text is another post")
    }

    @Test("a bad record of a Parse export is named by its place in the export and its field")
    func badExportRecord() throws {
        let box = try Sandbox()
        let input = """
            {"results":[{"objectId":"a","text":"fine","location":{"latitude":1,"longitude":1}},
                        {"objectId":"b","text":["not","text"],"location":{"latitude":1,"longitude":1}}]}
            """
        let run = try box.run(["import", "-"], input: input)
        #expect(run.status == Exit.inputRejected && run.stdout == "imported 1 post, 0 already present, 0 new users, 1 skipped\n", "\(run)")
        #expect(run.stderr.hasPrefix("anywall: -: record 2: bad text: expected a string; skipped\n"), "\(run)")
    }

    @Test("imports NDJSON from stdin, including anywall's own --ndjson output; bad lines are reported and skipped")
    func ndjson() throws {
        let source = try Sandbox()
        try source.signUp("bob")
        _ = try source.run(["post", "one", "--at", "1,1"])
        _ = try source.run(["post", "two", "--at", "1.001,1"])
        let exported = try source.run(["nearby", "--at", "1,1", "--ndjson"]).stdout
        let box = try Sandbox()
        let input = exported + "{\"text\":\"no place\"}\n{broken\n{\"text\":5,\"location\":{\"latitude\":1,\"longitude\":1}}\n[1]\n"
        let run = try box.run(["import", "-"], input: input)
        #expect(run.status == Exit.inputRejected, "\(run)")
        #expect(run.stdout == "imported 2 posts, 0 already present, 1 new user, 4 skipped\n")
        #expect(run.stderr.contains("-: line 3: no location; skipped") && run.stderr.contains("-: line 4: "), "\(run)")
        #expect(run.stderr.contains("-: line 5: bad text: expected a string; skipped\n"), "in JSON's words: \(run)")
        #expect(run.stderr.contains("-: line 6: bad record: expected an object; skipped\n"), "\(run)")
        let posts = try box.run(["nearby", "--at", "1,1", "--json"]).json as! [[String: Any]]
        #expect(posts.map { $0["text"] as! String } == ["one", "two"] && posts.allSatisfy { $0["author"] as? String == "bob" })
    }

    @Test("a bad author rejects only its own record; others' control characters are escaped in the table")
    func badAuthorAndEscapes() throws {
        let box = try Sandbox()
        let long = String(repeating: "n", count: 70)
        let input = """
            {"objectId":"a","text":"fine","location":{"latitude":1,"longitude":1},"author":"ann"}
            {"objectId":"b","text":"bad author","location":{"latitude":1,"longitude":1},"author":"\(long)"}
            {"objectId":"c","text":"ring \\u001b]0;pwned\\u0007 bell","location":{"latitude":1,"longitude":1.0001},"author":"bob"}
            """
        let run = try box.run(["import", "-"], input: input)
        #expect(run.status == Exit.inputRejected, "\(run)")
        #expect(run.stdout == "imported 2 posts, 0 already present, 2 new users, 1 skipped\n")
        #expect(run.stderr.contains("-: line 2: bad username"), "\(run)")
        let table = try box.run(["nearby", "--at", "1,1"]).stdout
        #expect(!table.contains("\u{1B}") && !table.contains("\u{07}"), "\(table)")
        #expect(table.contains("ring \\u{1B}]0;pwned\\u{07} bell"), "\(table)")
    }

    @Test("on a terminal, a progress bar shows the share of the file read and the posts imported, then gives way to the summary; a pipe gets none")
    func progressBar() throws {
        let box = try Sandbox()
        let file = box.home.appendingPathComponent("posts.ndjson")
        let lines = (0..<5_000).map { #"{"objectId":"p\#($0)","text":"post \#($0)","location":{"latitude":1,"longitude":2}}"# }
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let terminal = try PseudoTerminal()
        let run = try terminal.run(box, ["import", "--batch-size", "1000", file.path])
        #expect(run.status == Exit.success, "\(run)")
        #expect(run.output.contains("] 100%  5000 posts imported, "), "\(run.output)")
        #expect(run.output.contains("1000 posts imported, "), "\(run.output)")
        // The bar is erased before the summary, which ends the output on a line of its own.
        #expect(run.output.hasSuffix("\r\u{1B}[Kimported 5000 posts, 0 already present, 0 new users, 0 skipped\n"), "\(run.output)")
        let piped = try Sandbox().run(["import", "--batch-size", "1000", file.path])
        #expect(piped.stderr.isEmpty && piped.stdout == "imported 5000 posts, 0 already present, 0 new users, 0 skipped\n", "\(piped)")
    }
}

