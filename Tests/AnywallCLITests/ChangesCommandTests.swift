import Foundation
import TestSupport
import Testing

@Suite("nearby --changes")
struct ChangesCommandTests {
    @Test("reports added, then nothing, then added/removed/hidden/revealed against the previous run", arguments: WallKind.allCases)
    func changes(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("alice")
        let query = ["--at", "40.0,-74.0", "--limit", "2"]
        _ = try box.run(["post", "near", "--at", "40.0,-74.0"])
        _ = try box.run(["post", "medium", "--at", "40.015,-74.0"])
        let first = try box.run(["nearby", "--changes", "--ndjson"] + query).jsonLines
        #expect(first.map { $0["event"] as? String } == ["added", "added"])
        #expect(first.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true && $0["post"] is [String: Any] })
        let second = try box.run(["nearby", "--changes", "--ndjson"] + query)
        #expect(second.status == Exit.success && second.stdout.isEmpty)

        _ = try box.run(["post", "newcomer", "--at", "40.001,-74.0"])
        let third = try box.run(["nearby", "--changes", "--json", "--radius", "2km"] + query).json as! [[String: Any]]
        #expect(third.map { $0["event"] as! String } == ["added", "removed"])
        #expect(third.map { ($0["post"] as! [String: Any])["objectId"] as! String }.count == 2)
        #expect((third[1]["post"] as! [String: Any])["text"] is NSNull, "medium was last seen hidden")
        let fourth = try box.run(["nearby", "--changes", "--ndjson", "--radius", "100m"] + query).jsonLines
        #expect(fourth.map { $0["event"] as! String } == ["hidden"])
        #expect((fourth[0]["post"] as! [String: Any])["text"] is NSNull)
        let fifth = try box.run(["nearby", "--changes", "--radius", "2km"] + query)
        let lines = fifth.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[1].hasPrefix("revealed") && lines[1].hasSuffix("newcomer"), "\(fifth)")
    }

    @Test("different places keep separate saved results", arguments: WallKind.allCases)
    func separateQueries(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("bob")
        _ = try box.run(["post", "here", "--at", "10,10"])
        #expect(try box.run(["nearby", "--changes", "--ndjson", "--at", "10,10"]).jsonLines.count == 1)
        #expect(try box.run(["nearby", "--changes", "--ndjson", "--at", "10.001,10"]).jsonLines.count == 1)
        #expect(try box.run(["nearby", "--changes", "--ndjson", "--at", "10,10"]).stdout.isEmpty)
    }
}
