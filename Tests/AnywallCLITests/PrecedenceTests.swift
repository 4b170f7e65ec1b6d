import Foundation
import TestSupport
import Testing

@Suite("Flags > environment > settings file > defaults")
struct PrecedenceTests {
    @Test("radius, format and store each follow the documented order")
    func order() throws {
        let box = try Sandbox()
        try box.signUp("pat")
        _ = try box.run(["post", "here", "--at", "1,1"])
        _ = try box.run(["post", "600 m away", "--at", "1.0054,1"])
        func visible(_ args: [String], _ env: [String: String] = [:]) throws -> [Bool] {
            try (box.run(["nearby", "--at", "1,1", "--json"] + args, environment: env).json as! [[String: Any]]).map { $0["visible"] as! Bool }
        }
        #expect(try visible([]) == [true, true], "default 1000 m")
        #expect(try box.run(["settings", "set", "radius", "250ft"]).status == Exit.success)
        #expect(try visible([]) == [true, false], "settings file")
        #expect(try visible([], ["ANYWALL_RADIUS": "700m"]) == [true, true], "environment beats the file")
        #expect(try visible(["--radius", "100m"], ["ANYWALL_RADIUS": "700m"]) == [true, false], "flag beats the environment")

        #expect(try box.run(["settings", "set", "format", "ndjson"]).status == Exit.success)
        #expect(try box.run(["nearby", "--at", "1,1"]).jsonLines.count == 2)
        #expect(try box.run(["nearby", "--at", "1,1"], environment: ["ANYWALL_FORMAT": "geojson"]).stdout.contains("FeatureCollection"))
        #expect(try box.run(["nearby", "--at", "1,1", "--json"], environment: ["ANYWALL_FORMAT": "geojson"]).stdout.hasPrefix("[{"))

        let other = box.home.appendingPathComponent("other.sqlite").path
        let third = box.home.appendingPathComponent("third.sqlite").path
        #expect(try box.run(["nearby", "--at", "1,1", "--json"], environment: ["ANYWALL_STORE": other]).stdout == "[]\n")
        let flagged = try box.run(["nearby", "--at", "1,1", "--json", "--store", box.wallFile.path], environment: ["ANYWALL_STORE": third])
        #expect((flagged.json as! [Any]).count == 2, "--store beats ANYWALL_STORE")
        #expect(!FileManager.default.fileExists(atPath: third))
    }

    @Test("a bad value in the settings file names itself, and settings can still fix it")
    func badSettingsFile() throws {
        let box = try Sandbox()
        let file = box.home.appendingPathComponent(".config/anywall/settings.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #"{"radius":"bogus","colour":"red"}"#.write(to: file, atomically: true, encoding: .utf8)
        let nearby = try box.run(["nearby", "--at", "1,1"])
        #expect(nearby.status == Exit.inputRejected && nearby.stderr.hasPrefix("anywall: settings file: bad distance 'bogus'"), "\(nearby)")
        let shown = try box.run(["settings", "show"])
        #expect(shown.status == Exit.inputRejected && shown.stdout.contains("radius   bogus  [settings file]"), "\(shown)")
        #expect(shown.stderr.contains("anywall: settings file: bad distance 'bogus'"), "named, as nearby would name it: \(shown)")
        #expect(shown.stderr.contains("unknown setting 'colour' is ignored"))
        #expect(try box.run(["settings", "unset", "radius"]).status == Exit.success)
        #expect(try box.run(["nearby", "--at", "1,1"]).status == Exit.success)
    }

    @Test("a radius from settings shrinks to a shorter search distance instead of failing")
    func radiusWithinSearch() throws {
        let run = try Sandbox().run(["nearby", "--at", "1,1", "--search-distance", "10m", "--json"])
        #expect(run.status == Exit.success && run.stdout == "[]\n", "\(run)")
    }
}
