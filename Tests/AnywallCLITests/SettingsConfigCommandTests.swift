import Foundation
import TestSupport
import Testing

@Suite("settings and config")
struct SettingsConfigCommandTests {
    @Test("settings show, set, unset, in both formats, with where each value comes from", arguments: WallKind.allCases)
    func settings(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        let shown = try box.run(["settings"])
        #expect(shown.stdout.contains("radius   1000m  [default]"), "\(shown)")
        #expect(try box.run(["settings", "set", "radius", "2000ft"]).status == Exit.success)
        #expect(try box.run(["settings", "set", "units", "imperial"]).status == Exit.success)
        let json = try box.run(["settings", "show", "--json"]).json as! [String: Any]
        let entries = json["settings"] as! [String: [String: String]]
        #expect(entries["radius"] == ["value": "2000ft", "from": "settings file"])
        #expect(entries["units"]?["value"] == "imperial")
        #expect((json["backend"] as? String)?.hasPrefix(box.backendPrefix) == true)
        let env = try box.run(["settings", "show", "--json"], environment: ["ANYWALL_UNITS": "metric"]).json as! [String: Any]
        #expect((env["settings"] as! [String: [String: String]])["units"] == ["value": "metric", "from": "environment ANYWALL_UNITS"])
        #expect(try box.run(["settings", "unset", "radius"]).status == Exit.success)
        #expect(try box.run(["settings"]).stdout.contains("radius   1000m (0.6 mi)  [default]"), "in the reader's units too")
        let file = box.home.appendingPathComponent(".config/anywall/settings.json")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("imperial"))
    }

    @Test("bad values are refused and nothing is saved")
    func refused() throws {
        let box = try Sandbox()
        for (key, value) in [("radius", "3km"), ("units", "cubits"), ("format", "xml"), ("location", "home"), ("colour", "red")] {
            let run = try box.run(["settings", "set", key, value])
            #expect(run.status == Exit.inputRejected && run.stderr.split(separator: "\n").count == 1, "\(key) \(value): \(run)")
        }
        #expect(!FileManager.default.fileExists(atPath: box.home.appendingPathComponent(".config/anywall/settings.json").path))
        #expect(try box.run(["settings", "unset", "nope"]).status == Exit.inputRejected)
        #expect(try box.run(["settings", "set", "server", "ftp://example.com"]).status == Exit.inputRejected)
        #expect(try box.run(["settings", "set", "server", "https://parse.example.com/parse/"]).status == Exit.success)
        let noAppId = try box.run(["settings", "show"])
        #expect(noAppId.status == Exit.success && noAppId.stdout.contains("server   https://parse.example.com/parse  [settings file]"), "\(noAppId)")
        #expect(noAppId.stdout.contains("backend  none usable: settings file: the Parse Server at https://parse.example.com/parse needs an application id"), "\(noAppId)")
        let nearby = try box.run(["nearby", "--at", "1,2"])
        #expect(nearby.status == Exit.inputRejected && nearby.stderr.contains("PARSE_APPLICATION_ID"), "\(nearby)")
    }

    @Test("a flag wins over a bad value in the environment or the settings file, which stops only commands that use it")
    func flagOverBadValue() throws {
        let box = try Sandbox()
        _ = try box.run(["post", "--at", "1,2", "hello"])
        // The command with the flag, the same without it, and the bad value.
        let cases: [([String], [String], [String: String])] = [
            (["nearby", "--at", "1,2", "--radius", "3km"], ["nearby", "--at", "1,2"], ["ANYWALL_RADIUS": "bogus"]),
            (["nearby", "--at", "1,2", "--json"], ["nearby", "--at", "1,2"], ["ANYWALL_FORMAT": "bogus"]),
            (["where", "--at", "1,1"], ["where"], ["ANYWALL_LOCATION": "bogus"]),
        ]
        for (arguments, withoutFlag, environment) in cases {
            let run = try box.run(arguments, environment: environment)
            #expect(run.status == Exit.success, "\(arguments) with \(environment): \(run)")
            let unflagged = try box.run(withoutFlag, environment: environment)
            #expect(unflagged.status == Exit.inputRejected && unflagged.stderr.contains("environment \(environment.keys.first!)"),
                    "without the flag the bad value is refused, naming where it came from: \(unflagged)")
        }
    }

    @Test("the radius choices follow the wall's config", arguments: WallKind.allCases)
    func radiusFollowsConfig(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        #expect(try box.run(["config", "set", "availableFilterDistances", "[100, 3000]"] + box.adminArguments).status == Exit.success)
        #expect(try box.run(["settings", "set", "radius", "100ft"]).status == Exit.success)
        #expect(try box.run(["settings", "set", "radius", "250ft"]).status == Exit.inputRejected)
    }

    @Test("config show prints Parse's params shape and where it came from; set, refresh and init", arguments: WallKind.allCases)
    func config(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        let shown = try box.run(["config", "show", "--json"]).json as! [String: Any]
        let params = shown["params"] as! [String: Any]
        #expect(params["availableFilterDistances"] as? [Int] == [250, 2000, 5000])
        #expect(params["postMaxCharacterCount"] as? Int == 140)
        #expect((shown["source"] as? String)?.hasPrefix(box.backendPrefix) == true && shown["origin"] as? String == "backend")
        #expect(try (box.run(["config", "show", "--json"]).json as! [String: Any])["origin"] as? String == "cache")
        let set = try box.run(["config", "set", "postMaxCharacterCount", "280", "--json"] + box.adminArguments)
        let setParams = (set.json as! [String: Any])["params"] as! [String: Any]
        #expect(setParams["postMaxCharacterCount"] as? Int == 280)
        #expect(setParams["availableFilterDistances"] as? [Int] == [250, 2000, 5000], "a key not set keeps its default: \(set)")
        #expect(try box.run(["config", "set", "motd", "\"hello\""] + box.adminArguments).status == Exit.success)
        #expect(try box.run(["config", "set", "postMaxCharacterCount", "lots"] + box.adminArguments).status == Exit.inputRejected)
        #expect(try box.run(["config", "set", "postMaxCharacterCount", "\"lots\""] + box.adminArguments).status == Exit.inputRejected)
        let refreshed = try box.run(["config", "refresh", "--json"]).json as! [String: Any]
        #expect(refreshed["origin"] as? String == "backend")
        #expect((refreshed["params"] as! [String: Any])["motd"] as? String == "hello")
        let table = try box.run(["config", "init"] + box.adminArguments).stdout
        #expect(table.contains("postMaxCharacterCount     280") && table.contains("availableFilterDistances"), "\(table)")
    }
}
