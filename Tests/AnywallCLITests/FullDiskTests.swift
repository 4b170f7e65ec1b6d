import Foundation
import TestSupport
import Testing

/// Writes that cannot complete (a file size limit, as a full disk): one clear line and a failing
/// exit code, the previous file as it was, nothing queued lost. `ulimit -f 0` makes every write
/// that grows a file fail, as a full disk would.
@Suite("A full disk")
struct FullDiskTests {
    /// Runs `command` (a shell line using "$ANYWALL") under a file size limit of 0. Its output
    /// goes through a pipe, which the limit does not cover: what it prints, and its exit status.
    private func underLimit(_ box: Sandbox, _ command: String) throws -> (status: Int32, output: String) {
        let run = try box.shell("{ ulimit -f 0; \(command); echo \"exit $?\"; } 2>&1 | cat")
        var lines = run.stdout.split(separator: "\n").map(String.init)
        let status = lines.popLast().flatMap { Int32($0.replacingOccurrences(of: "exit ", with: "")) } ?? -1
        return (status, lines.joined(separator: "\n"))
    }

    @Test("results that cannot be written (stdout on a full disk, or closed) end with one line and status 74")
    func fullOutput() throws {
        let box = try Sandbox()
        try box.signUp("alice")
        #expect(try box.run(["post", "hello", "--at", "40,-74"]).status == Exit.success)
        for redirect in ["> /dev/full", ">&-"] {
            let run = try box.shell("{ \"$ANYWALL\" nearby --at 40,-74 \(redirect); echo \"exit $?\"; } 2>&1 | cat")
            #expect(run.stdout.hasPrefix("anywall: cannot write to standard output: "), "\(run)")
            #expect(run.stdout.hasSuffix("exit \(Exit.outputFailed)\n"), "\(run)")
            #expect(run.stdout.split(separator: "\n").count == 2, "\(run)")
        }
    }

    @Test("a post whose objectId cannot be printed says that it was made, so that it is not posted twice")
    func postMadeOutputLost() throws {
        let box = try Sandbox()
        try box.signUp("alice")
        let run = try box.shell("{ \"$ANYWALL\" post hello --at 40,-74 > /dev/full; echo \"exit $?\"; } 2>&1 | cat")
        #expect(run.stdout.hasSuffix("exit \(Exit.outputFailed)\n"), "\(run)")
        let id = try #require(run.stdout.firstMatch(of: /the post was made \(objectId (\w+)\): do not post it again/)?.1, "\(run)")
        let posts = try box.run(["nearby", "--at", "40,-74", "--json"]).json as! [[String: Any]]
        #expect(posts.map { $0["objectId"] as? String } == [String(id)])
    }

    @Test("settings and session files keep their previous version")
    func settingsAndSession() throws {
        let box = try Sandbox()
        try box.signUp("alice")
        #expect(try box.run(["settings", "set", "units", "imperial"]).status == Exit.success)
        let settingsFile = box.home.appendingPathComponent(".config/anywall/settings.json")
        let settingsBefore = try Data(contentsOf: settingsFile), sessionBefore = try Data(contentsOf: box.sessionFile)

        let settings = try underLimit(box, "\"$ANYWALL\" settings set units metric")
        #expect(settings.status == Exit.fileUnreadable, "\(settings)")
        #expect(settings.output.hasPrefix("anywall: cannot write ") && settings.output.hasSuffix("the previous version is kept"), "\(settings)")
        #expect(settings.output.split(separator: "\n").count == 1, "\(settings)")
        #expect(try Data(contentsOf: settingsFile) == settingsBefore)

        let login = try underLimit(box, "echo pw-alice | \"$ANYWALL\" login --username alice --password-stdin")
        #expect(login.status != Exit.success && login.output.split(separator: "\n").count == 1, "\(login)")
        #expect(try Data(contentsOf: box.sessionFile) == sessionBefore)
        #expect(try box.run(["whoami"]).status == Exit.success)
    }

    @Test("a post the wall cannot store is refused with one line; the posts before it stay")
    func wall() throws {
        let box = try Sandbox()
        try box.signUp("alice")
        #expect(try box.run(["post", "before", "--at", "40,-74"]).status == Exit.success)
        let post = try underLimit(box, "\"$ANYWALL\" post 'during' --at 40,-74")
        #expect(post.status != Exit.success && post.output.split(separator: "\n").count == 1, "\(post)")
        let texts = try box.run(["nearby", "--at", "40,-74", "--json"]).json as? [[String: Any]]
        #expect(texts?.compactMap { $0["text"] as? String } == ["before"])
    }

    @Test("a post that cannot be queued says so; the posts already queued stay and are sent later", .timeLimit(.minutes(2)))
    func outbox() throws {
        let box = try Sandbox(.server)
        try box.signUp("alice")
        let server = try #require(box.server)
        server.stop()
        let queued = try box.run(["post", "queued first", "--at", "40,-74"])
        #expect(queued.status == Exit.success && queued.stderr.contains("waits in the outbox"), "\(queued)")
        let full = try underLimit(box, "\"$ANYWALL\" post 'not queued' --at 40,-74")
        #expect(full.status == Exit.fileUnreadable && full.output.contains("cannot write"), "\(full)")
        try server.start()
        let nearby = try box.run(["nearby", "--at", "40,-74", "--json"])
        let texts = (nearby.json as? [[String: Any]])?.compactMap { $0["text"] as? String }
        #expect(texts == ["queued first"], "\(nearby)")
    }
}
