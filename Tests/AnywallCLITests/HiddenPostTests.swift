import Foundation
import Testing

@Suite("Hidden posts leak nowhere")
struct HiddenPostTests {
    @Test("beyond the filter radius, no format and no change event carries the text or the author")
    func noLeak() throws {
        let box = try Sandbox()
        try box.signUp("mallory", name: "Mallory Hiddenname")
        #expect(try box.run(["post", "The vault code is 7741", "--at", "52.5300,13.4050"]).status == Exit.success)
        try box.signUp("alice")
        #expect(try box.run(["post", "Hello Berlin", "--at", "52.5200,13.4050"]).status == Exit.success)
        let at = ["--at", "52.5200,13.4050"]
        var outputs: [String] = []
        for format in [[], ["--json"], ["--ndjson"], ["--geojson"], ["--table"]] {
            outputs.append(try box.run(["nearby"] + at + format).stdout)
            outputs.append(try box.run(["nearby", "--changes"] + at + format).stdout)
        }
        // Change events of a post that stays hidden while the radius changes around it.
        for format in [["--json"], ["--ndjson"], ["--geojson"], []] {
            outputs.append(try box.run(["nearby", "--changes", "--radius", "500m"] + at + format).stdout)
            outputs.append(try box.run(["nearby", "--changes", "--radius", "900m"] + at + format).stdout)
        }
        // The hidden post is in every output (it is listed), yet its words and author are not.
        #expect(outputs.filter { $0.contains("Hello Berlin") }.count >= 5)
        for output in outputs {
            #expect(!output.contains("vault") && !output.contains("7741"), "\(output)")
            #expect(!output.contains("mallory") && !output.contains("Mallory") && !output.contains("Hiddenname"), "\(output)")
        }
        let saved = try FileManager.default.contentsOfDirectory(atPath: box.home.appendingPathComponent(".local/state/anywall/changes").path)
        for file in saved {
            let text = try String(contentsOfFile: box.home.appendingPathComponent(".local/state/anywall/changes/\(file)").path, encoding: .utf8)
            #expect(!text.contains("vault"), "the saved result must not keep a hidden post's text")
        }
    }
}
