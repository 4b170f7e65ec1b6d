import Foundation
import TestSupport
import Testing

@Suite("nearby and where, in every format")
struct NearbyCommandTests {
    static let here = "37.7793,-122.4193"

    /// alice posts next to `here`, 800 m away and 3 km away; zed posts a secret 5 km away.
    private func wall(_ kind: WallKind) throws -> Sandbox {
        let box = try Sandbox(kind)
        try box.signUp("zed", name: "Zed Secretauthor")
        _ = try box.run(["post", "The secret is swordfish", "--at", "37.8243,-122.4193"])
        try box.signUp("alice")
        _ = try box.run(["post", "Free coffee", "--at", Self.here])
        _ = try box.run(["post", "Road closed at the bridge", "--at", "37.7865,-122.4193"])
        _ = try box.run(["post", "Farmers market", "--at", "37.8063,-122.4193"])
        return box
    }

    @Test("the table lists nearest first; hidden posts say to get closer", arguments: WallKind.allCases)
    func table(_ kind: WallKind) throws {
        let run = try wall(kind).run(["nearby", "--at", Self.here])
        #expect(run.status == Exit.success, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("DISTANCE"))
        #expect(lines[1].hasPrefix("0 m") && lines[1].hasSuffix("Free coffee"))
        #expect(lines[2].hasPrefix("801 m") && lines[2].contains("alice") && lines[2].hasSuffix("Road closed at the bridge"))
        #expect(lines[3].hasPrefix("3 km") && lines[3].hasSuffix("Can't view post! Get closer."))
        #expect(lines[4].hasPrefix("5 km") && lines[4].hasSuffix("Can't view post! Get closer."))
        #expect(!run.stdout.contains("\u{1B}["), "no colour when piped")
    }

    @Test("--json prints the documented post shape, hidden posts with null text and author", arguments: WallKind.allCases)
    func json(_ kind: WallKind) throws {
        let posts = try wall(kind).run(["nearby", "--at", Self.here, "--json"]).json as! [[String: Any]]
        #expect(posts.count == 4)
        #expect(Set(posts[0].keys) == ["objectId", "text", "author", "location", "distanceMeters", "visible", "createdAt",
                                       "score", "replyCount", "parent", "myVote"])
        #expect(posts[0]["text"] as? String == "Free coffee" && posts[0]["distanceMeters"] as? Double == 0)
        #expect(posts[2]["visible"] as? Bool == false && posts[2]["text"] is NSNull && posts[2]["author"] is NSNull)
        #expect((posts[3]["location"] as! [String: Double])["latitude"] == 37.8243)
        #expect((posts[0]["createdAt"] as! String).wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
    }

    @Test("--ndjson prints one post per line; --geojson a FeatureCollection with [lon, lat]", arguments: WallKind.allCases)
    func ndjsonAndGeoJSON(_ kind: WallKind) throws {
        let box = try wall(kind)
        let lines = try box.run(["nearby", "--at", Self.here, "--ndjson"]).jsonLines
        #expect(lines.map { $0["text"] as? String } == ["Free coffee", "Road closed at the bridge", nil, nil])
        let geo = try box.run(["nearby", "--at", Self.here, "--geojson"]).json as! [String: Any]
        #expect(geo["type"] as? String == "FeatureCollection")
        let features = geo["features"] as! [[String: Any]]
        #expect(features.count == 4)
        let geometry = features[3]["geometry"] as! [String: Any]
        #expect(geometry["type"] as? String == "Point" && geometry["coordinates"] as? [Double] == [-122.4193, 37.8243])
        #expect((features[0]["properties"] as! [String: Any])["text"] as? String == "Free coffee")
    }

    @Test("--radius, --limit and --search-distance shape the result; the radius setting and units apply", arguments: WallKind.allCases)
    func options(_ kind: WallKind) throws {
        let box = try wall(kind)
        let wide = try box.run(["nearby", "--at", Self.here, "--radius", "4km", "--json"]).json as! [[String: Any]]
        #expect(wide.map { $0["visible"] as! Bool } == [true, true, true, false])
        #expect((try box.run(["nearby", "--at", Self.here, "--limit", "2", "--json"]).json as! [Any]).count == 2)
        #expect((try box.run(["nearby", "--at", Self.here, "--search-distance", "2mi", "--json"]).json as! [Any]).count == 3)
        #expect(try box.run(["settings", "set", "radius", "250ft"]).status == Exit.success)
        let narrow = try box.run(["nearby", "--at", Self.here, "--json"]).json as! [[String: Any]]
        #expect(narrow.map { $0["visible"] as! Bool } == [true, false, false, false])
        #expect(try box.run(["settings", "set", "units", "imperial"]).status == Exit.success)
        let table = try box.run(["nearby", "--at", Self.here]).stdout
        #expect(table.contains("0.5 mi") && table.contains("1.9 mi") && !table.contains(" km"))
        #expect(try box.run(["nearby", "--at", Self.here, "--format-is-not-a-flag"]).status == Exit.usage)
    }

    @Test("the format setting and ANYWALL_FORMAT choose the default format", arguments: WallKind.allCases)
    func defaultFormat(_ kind: WallKind) throws {
        let box = try wall(kind)
        #expect(try box.run(["settings", "set", "format", "ndjson"]).status == Exit.success)
        #expect(try box.run(["nearby", "--at", Self.here]).jsonLines.count == 4)
        #expect(try box.run(["nearby", "--at", Self.here], environment: ["ANYWALL_FORMAT": "json"]).stdout.hasPrefix("["))
        #expect(try box.run(["nearby", "--at", Self.here, "--table"]).stdout.hasPrefix("DISTANCE"))
    }

    @Test("an empty wall prints an empty result, and says so on stderr for the table", arguments: WallKind.allCases)
    func empty(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        #expect(try box.run(["nearby", "--at", Self.here, "--json"]).stdout == "[]\n")
        let table = try box.run(["nearby", "--at", Self.here])
        #expect(table.stdout.isEmpty && table.stderr == "No posts within 100 km.\n")
    }

    @Test("with units imperial, every distance printed for people is in feet or miles")
    func imperialUnits() throws {
        let box = try wall(.embedded)
        #expect(try box.run(["settings", "set", "units", "imperial"]).status == Exit.success)
        let track = box.home.appendingPathComponent("here.nmea")
        try NMEATrack.epoch(latitude: 37.7793, longitude: -122.4193, second: 0).write(to: track, atomically: true, encoding: .utf8)
        let outputs = [try box.run(["nearby", "--at", Self.here]), try box.run(["nearby", "--at", Self.here, "--changes"]),
                       try box.run(["nearby", "--watch", "--nmea", track.path])]
        for run in outputs {
            #expect(run.status == Exit.success, "\(run)")
            #expect(run.stdout.contains("0 ft") && run.stdout.contains("0.5 mi") && run.stdout.contains("3.1 mi"), "\(run)")
            #expect(run.stdout.firstMatch(of: /\d (m|km)\b/) == nil, "no metric distance: \(run)")
        }
        #expect(try box.run(["nearby", "--at", "-33.87,151.21"]).stderr == "No posts within 62.1 mi.\n")
        #expect(try box.run(["nearby", "--at", "-33.87,151.21", "--search-distance", "2km"]).stderr == "No posts within 1.2 mi.\n")

        // The radius shows as set, and in the reader's units when it is set in the other system.
        #expect(try box.run(["settings"]).stdout.contains("radius   1000m (0.6 mi)  [default]"))
        #expect(try box.run(["settings", "set", "radius", "250ft"]).status == Exit.success)
        #expect(try box.run(["settings"]).stdout.contains("radius   250ft  [settings file]"))
        #expect(try box.run(["settings"], environment: ["ANYWALL_UNITS": "metric"]).stdout.contains("radius   250ft (76 m)  [settings file]"))
    }

    @Test("where prints the fix in both formats, unrounded")
    func whereCommand() throws {
        let box = try Sandbox()
        let json = try box.run(["where", "--at", "-33.868820153421,151.209295943812", "--json"])
        #expect(json.stdout == #"{"latitude":-33.868820153421,"longitude":151.209295943812,"source":"fixed"}"# + "\n")
        #expect(try box.run(["where", "--at", "1.25,-2.5"]).stdout == "1.25,-2.5  fixed\n")
    }
}
