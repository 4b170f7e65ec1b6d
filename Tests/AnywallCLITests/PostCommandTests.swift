import Foundation
import TestSupport
import Testing

@Suite("post")
struct PostCommandTests {
    @Test("posts from the argument and from stdin; --json prints the post with unrounded coordinates", arguments: WallKind.allCases)
    func posts(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("alice")
        let plain = try box.run(["post", "Free coffee", "--at", "37.7793,-122.4193"])
        #expect(plain.status == Exit.success && plain.stdout.count == 11, "\(plain)")
        let piped = try box.run(["post", "-", "--at", "-33.868820153421,151.209295943812", "--json"], input: "Road closed at the bridge\n")
        #expect(piped.status == Exit.success, "\(piped)")
        let post = piped.json as! [String: Any]
        #expect(post["text"] as? String == "Road closed at the bridge")
        #expect(post["author"] as? String == "alice")
        let location = post["location"] as! [String: Double]
        #expect(location["latitude"] == -33.868820153421 && location["longitude"] == 151.209295943812)
        #expect(post["visible"] as? Bool == true)
        #expect(piped.stdout.contains("-33.868820153421") && piped.stdout.contains("151.209295943812"))
    }

    @Test("posting needs a session", arguments: WallKind.allCases)
    func needsLogin(_ kind: WallKind) throws {
        let run = try Sandbox(kind).run(["post", "hello", "--at", "1,2"])
        #expect(run.status == Exit.authFailed)
        #expect(run.stderr == "anywall: not logged in: run 'anywall login' (or 'anywall signup') first\n")
    }

    @Test("empty and too-long posts are refused; an emoji or accented letter counts as one character", arguments: WallKind.allCases)
    func length(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("bob")
        for text in ["", "   "] {
            let run = try box.run(["post", text, "--at", "1,2"])
            #expect(run.status == Exit.inputRejected && run.stderr == "anywall: the post is empty: write some text\n", "\(run)")
        }
        for unit in ["x", "👍🏽", "e\u{301}"] {
            #expect(try box.run(["post", String(repeating: unit, count: 140), "--at", "1,2"]).status == Exit.success)
            let long = try box.run(["post", "-", "--at", "1,2"], input: String(repeating: unit, count: 141))
            #expect(long.status == Exit.inputRejected)
            #expect(long.stderr == "anywall: the post is 141 characters long; the limit is 140\n")
        }
        #expect(try box.run(["config", "set", "postMaxCharacterCount", "200"] + box.adminArguments).status == Exit.success)
        #expect(try box.run(["post", String(repeating: "y", count: 200), "--at", "1,2"]).status == Exit.success)
    }

    @Test("a location is required: no flag and no setting says how to give one", arguments: WallKind.allCases)
    func needsLocation(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("cy")
        let run = try box.run(["post", "hello"])
        #expect(run.status == Exit.noFix && run.stderr.contains("--at"), "\(run)")
        #expect(try box.run(["settings", "set", "location", "at:1.5,2.5"]).status == Exit.success)
        #expect(try box.run(["post", "hello"]).status == Exit.success)
        let near = try box.run(["nearby", "--json"]).json as! [[String: Any]]
        #expect((near[0]["location"] as! [String: Double])["latitude"] == 1.5)
    }
}
