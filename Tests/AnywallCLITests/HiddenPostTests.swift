import Foundation
import TestSupport
import Testing

@Suite("Hidden posts leak nowhere")
struct HiddenPostTests {
    static let secretWords = ["vault", "7741", "mallory", "Mallory", "Hiddenname"]

    /// mallory's secret 1.1 km north of alice's post, in a wall of its own.
    private func wall(_ kind: WallKind) throws -> Sandbox {
        let box = try Sandbox(kind)
        try box.signUp("mallory", name: "Mallory Hiddenname")
        #expect(try box.run(["post", "The vault code is 7741", "--at", "52.5300,13.4050"]).status == Exit.success)
        try box.signUp("alice")
        #expect(try box.run(["post", "Hello Berlin", "--at", "52.5200,13.4050"]).status == Exit.success)
        return box
    }

    private func expectNoLeak(_ output: String, _ step: String) {
        for word in Self.secretWords {
            #expect(!output.contains(word), "\(step) leaked '\(word)': \(output)")
        }
    }

    @Test("beyond the filter radius, no listing and no change event carries the text or the author",
          arguments: WallKind.allCases, [["--table"], ["--json"], ["--ndjson"], ["--geojson"]])
    func noLeak(_ kind: WallKind, _ format: [String]) throws {
        let box = try wall(kind)
        let query = ["nearby", "--at", "52.5200,13.4050", "--limit", "2"] + format
        let listing = try box.run(query)
        #expect(listing.stdout.contains("Hello Berlin"))
        expectNoLeak(listing.stdout, "listing")

        let added = try box.run(query + ["--changes", "--radius", "500m"])
        #expect(added.stdout.contains("added") && added.stdout.contains("Hello Berlin"), "\(added)")
        expectNoLeak(added.stdout, "added")
        let revealed = try box.run(query + ["--changes", "--radius", "2km"])
        #expect(revealed.stdout.contains("revealed") && revealed.stdout.contains("vault"), "the sequence must really reveal it: \(revealed)")
        let hidden = try box.run(query + ["--changes", "--radius", "500m"])
        #expect(hidden.stdout.contains("hidden"), "\(hidden)")
        expectNoLeak(hidden.stdout, "hidden")

        // Seen readable, then pushed out of the nearest two while beyond the radius: the removed
        // event carries its last form, withheld as it is now.
        _ = try box.run(query + ["--changes", "--radius", "2km"])
        #expect(try box.run(["post", "Closer", "--at", "52.5201,13.4050"]).status == Exit.success)
        let removed = try box.run(query + ["--changes", "--radius", "500m"])
        #expect(removed.stdout.contains("removed") && removed.stdout.contains("Closer"), "\(removed)")
        expectNoLeak(removed.stdout, "removed")
    }

    @Test("the saved result of --changes keeps no hidden text", arguments: WallKind.allCases)
    func savedResults(_ kind: WallKind) throws {
        let box = try wall(kind)
        _ = try box.run(["nearby", "--at", "52.5200,13.4050", "--changes", "--json"])
        let dir = box.home.appendingPathComponent(".local/state/anywall/changes")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(files.count == 1)
        for file in files {
            expectNoLeak(try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8), "saved result")
        }
    }
}
