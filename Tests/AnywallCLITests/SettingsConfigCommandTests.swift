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
        let entries = json["settings"] as! [String: [String: Any]]
        #expect(entries["radius"]?["value"] as? String == "2000ft" && entries["radius"]?["from"] as? String == "settings file")
        #expect(entries["units"]?["value"] as? String == "imperial")
        #expect(entries["location"]?["value"] is NSNull, "a setting without a value is null, not left out: \(json)")
        #expect((json["backend"] as? String)?.hasPrefix(box.backendPrefix) == true)
        let env = try box.run(["settings", "show", "--json"], environment: ["ANYWALL_UNITS": "metric"]).json as! [String: Any]
        let units = (env["settings"] as! [String: [String: Any]])["units"]
        #expect(units?["value"] as? String == "metric" && units?["from"] as? String == "environment ANYWALL_UNITS")
        let unset = try box.run(["settings", "unset", "radius"])
        #expect(unset.status == Exit.success && unset.stderr == "radius unset; now 1000m [default]\n", "\(unset)")
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

    @Test("a radius that is not one of the choices says how to have it: the flag, or the wall's config",
          arguments: ["2km", "500m", "1mi", "2000"])
    func otherRadius(_ radius: String) throws {
        let box = try Sandbox()
        let run = try box.run(["settings", "set", "radius", radius])
        #expect(run.status == Exit.inputRejected && run.stderr.split(separator: "\n").count == 1, "\(run)")
        #expect(run.stderr.contains("is not one of the choices: 250 ft, 2000 ft, 1000 m, 5000 ft; for any other radius give --radius \(radius)"),
                "\(run)")
        let feet = try #require(run.stderr.firstMatch(of: /availableFilterDistances '(\[[0-9.,]+\])'/)?.1, "\(run)")
        // What the message says to type works: the config set, then the radius it now offers.
        #expect(try box.run(["config", "set", "availableFilterDistances", String(feet)]).status == Exit.success)
        #expect(try box.run(["settings", "set", "radius", radius]).status == Exit.success)
        #expect(try box.run(["nearby", "--at", "1,1", "--radius", radius]).status == Exit.success)
    }

    @Test("an NMEA file set as the location is kept with its whole path, so it is found from any directory")
    func nmeaPathKeptWhole() throws {
        let box = try Sandbox()
        let walk = box.home.appendingPathComponent("walks/walk.nmea")
        try FileManager.default.createDirectory(at: walk.deletingLastPathComponent(), withIntermediateDirectories: true)
        try NMEATrack.epoch(latitude: 37.7793, longitude: -122.4193, second: 0).write(to: walk, atomically: true, encoding: .utf8)
        let set = try box.shell("cd \"$HOME/walks\" && \"$ANYWALL\" settings set location nmea:walk.nmea")
        #expect(set.status == Exit.success, "\(set)")
        let elsewhere = try box.shell("cd / && \"$ANYWALL\" where --json")
        #expect(elsewhere.status == Exit.success, "\(elsewhere)")
        #expect(elsewhere.stdout.contains("\"source\":\"nmea:\(walk.path)\""), "\(elsewhere)")
    }

    @Test("a settings file that is not JSON is named by every command, and set or unset start a new one, keeping it beside")
    func damagedSettingsFile() throws {
        let box = try Sandbox()
        let file = box.home.appendingPathComponent(".config/anywall/settings.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "{\"units\": \"metric\",".write(to: file, atomically: true, encoding: .utf8)
        let nearby = try box.run(["nearby", "--at", "1,1"])
        #expect(nearby.status == Exit.inputRejected && nearby.stderr.contains("'anywall settings set KEY VALUE' starts a new one"), "\(nearby)")
        let set = try box.run(["settings", "set", "units", "imperial"])
        #expect(set.status == Exit.success, "\(set)")
        #expect(set.stderr.contains("the old one kept as \(file.path).damaged"), "\(set)")
        #expect(try String(contentsOf: file.appendingPathExtension("damaged"), encoding: .utf8) == "{\"units\": \"metric\",")
        #expect(try box.run(["nearby", "--at", "1,1"]).status == Exit.success)
        #expect(try box.run(["settings", "show", "--json"]).status == Exit.success)
    }

    @Test("a bad value left in the settings file is shown and named, with a failing status, until mended")
    func badValueInFile() throws {
        let box = try Sandbox()
        let file = box.home.appendingPathComponent(".config/anywall/settings.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "{\"units\": \"furlongs\"}".write(to: file, atomically: true, encoding: .utf8)
        let shown = try box.run(["settings", "show"])
        #expect(shown.status == Exit.inputRejected, "\(shown)")
        #expect(shown.stdout.contains("units    furlongs  [settings file]"), "still shown, to be mended: \(shown)")
        #expect(shown.stderr == "anywall: settings file: bad units 'furlongs': use metric or imperial: "
                + "'anywall settings set units VALUE' or 'anywall settings unset units' mends it\n", "\(shown)")
        #expect(try box.run(["settings", "unset", "units"]).status == Exit.success)
        #expect(try box.run(["settings", "show"]).status == Exit.success)
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
        let unknown = try box.run(["config", "set", "motd", "\"hello\""] + box.adminArguments)
        #expect(unknown.status == Exit.inputRejected && unknown.stderr.contains("give --new-key"), "\(unknown)")
        let typo = try box.run(["config", "set", "postMaxCharCount", "200"] + box.adminArguments)
        #expect(typo.stderr.hasPrefix("anywall: unknown config parameter 'postMaxCharCount': did you mean 'postMaxCharacterCount'?"),
                "\(typo)")
        #expect(try box.run(["config", "set", "motd", "\"hello\"", "--new-key"] + box.adminArguments).status == Exit.success)
        let negative = try box.run(["config", "set", "postMaxCharacterCount", "-1"] + box.adminArguments)
        #expect(negative.status == Exit.inputRejected && !negative.stderr.contains("option"), "a value, refused as one: \(negative)")
        #expect(try box.run(["config", "set", "postMaxCharacterCount", "lots"] + box.adminArguments).status == Exit.inputRejected)
        #expect(try box.run(["config", "set", "postMaxCharacterCount", "\"lots\""] + box.adminArguments).status == Exit.inputRejected)
        let refreshed = try box.run(["config", "refresh", "--json"]).json as! [String: Any]
        #expect(refreshed["origin"] as? String == "backend")
        #expect((refreshed["params"] as! [String: Any])["motd"] as? String == "hello")
        let unset = try box.run(["config", "unset", "motd", "--json"] + box.adminArguments)
        #expect((unset.json as? [String: Any]).flatMap { $0["params"] as? [String: Any] }?["motd"] == nil, "\(unset)")
        #expect(((try box.run(["config", "refresh", "--json"]).json as! [String: Any])["params"] as! [String: Any])["motd"] == nil)
        let table = try box.run(["config", "init"] + box.adminArguments).stdout
        #expect(table.contains("postMaxCharacterCount     280") && table.contains("availableFilterDistances"), "\(table)")
    }
}
