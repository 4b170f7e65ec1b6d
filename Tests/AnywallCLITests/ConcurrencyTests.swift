import Foundation
import TestSupport
import Testing

@Suite("Several processes on one wall")
struct ConcurrencyTests {
    @Test("four processes posting 250 posts each at once end with exactly 1000 posts and no error")
    func fourWriters() throws {
        let box = try Sandbox()
        try box.signUp("writer")
        let run = try box.shell("""
            for w in 1 2 3 4; do
              ( for i in $(seq 1 250); do "$ANYWALL" post "writer $w post $i" --at "48.85$w,2.35$i" >/dev/null || echo "failed $w $i"; done ) &
            done
            wait
            """)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
        let posts = try box.run(["nearby", "--at", "48.85,2.35", "--limit", "1000", "--json"]).json as! [[String: Any]]
        #expect(posts.count == 1000)
        #expect(Set(posts.map { $0["objectId"] as! String }).count == 1000)
        let count = try box.shell("sqlite3 \"$HOME/.local/share/anywall/wall.sqlite\" 'SELECT count(*) FROM post'")
        #expect(count.stdout == "1000\n")
    }

    @Test("many processes opening a new wall at once all succeed", arguments: 0..<4)
    func newWall(_ round: Int) throws {
        let box = try Sandbox()
        let run = try box.shell("""
            for i in 1 2 3 4 5 6 7 8; do ( "$ANYWALL" nearby --at 1,1 --json >/dev/null || echo "failed $i" ) & done
            wait
            """)
        #expect(run.stdout.isEmpty && run.stderr.isEmpty, "\(run)")
        let mode = try FileManager.default.attributesOfItem(atPath: box.wallFile.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600, "the wall holds password hashes: owner only")
    }
}
