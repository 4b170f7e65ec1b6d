import Foundation
import TestSupport
import Testing

@Suite("nearby --within an area, on the embedded wall and through the Parse backend")
struct AreaCommandTests {
    /// A pentagon near (40, 10) with a square hole in its middle (GeoJSON: longitude first).
    static let pentagonWithHole = """
        {"type":"Feature","properties":{"name":"test area"},"geometry":{"type":"Polygon","coordinates":[
          [[10,40],[10.1,40],[10.1,40.1],[10.05,40.15],[10,40.1],[10,40]],
          [[10.04,40.04],[10.06,40.04],[10.06,40.06],[10.04,40.06],[10.04,40.04]]]}}
        """

    /// Posts inside, outside, on the edges and in the hole of `pentagonWithHole`.
    static let places: [(text: String, at: String)] = [
        ("inside", "40.02,10.02"), ("outside east", "40.02,10.2"), ("on the south edge", "40,10.05"),
        ("on a corner", "40.1,10.1"), ("in the hole", "40.05,10.05"), ("on the hole's edge", "40.04,10.05"),
        ("above the roof", "40.14,10.01"),
    ]

    private func wall(_ kind: WallKind, _ places: [(text: String, at: String)]) throws -> Sandbox {
        let box = try Sandbox(kind)
        try box.signUp("alice")
        for place in places {
            let posted = try box.run(["post", place.text, "--at", place.at])
            #expect(posted.status == Exit.success, "\(posted)")
        }
        return box
    }

    /// (text, distance) of each post listed, nearest first.
    private func listing(_ box: Sandbox, _ arguments: [String], radius: String = "100km") throws -> [String] {
        let run = try box.run(["nearby", "--json", "--radius", radius] + arguments)
        #expect(run.status == Exit.success && run.stderr.isEmpty, "\(run)")
        guard run.status == Exit.success else { return [] }
        return (run.json as! [[String: Any]]).map { "\($0["text"] as? String ?? "?") \($0["distanceMeters"]!)" }
    }

    @Test("a polygon with a hole: inside, edges and the hole's edge in; outside and in the hole out; the same on both backends")
    func polygonWithHole() throws {
        var answers: [WallKind: [String]] = [:]
        for kind in WallKind.allCases {
            let box = try wall(kind, Self.places)
            let file = box.home.appendingPathComponent("area.geojson")
            try Self.pentagonWithHole.write(to: file, atomically: true, encoding: .utf8)
            let listed = try listing(box, ["--at", "40.05,10.05", "--within", "@\(file.path)"])
            #expect(Set(listed.map { String($0.split(separator: " ").dropLast().joined(separator: " ")) })
                    == ["inside", "on the south edge", "on a corner", "on the hole's edge"], "\(kind): \(listed)")
            answers[kind] = listed
        }
        #expect(answers[.embedded] == answers[.server], "same posts, same distances, same order")
        #expect(answers[.embedded]?.first?.hasPrefix("on the hole's edge") == true, "nearest first: \(answers)")
    }

    @Test("WKT and inline GeoJSON give the same answer as the file", arguments: WallKind.allCases)
    func forms(_ kind: WallKind) throws {
        let box = try wall(kind, Self.places)
        let wkt = "POLYGON ((10 40, 10.1 40, 10.1 40.1, 10.05 40.15, 10 40.1, 10 40), (10.04 40.04, 10.06 40.04, 10.06 40.06, 10.04 40.06, 10.04 40.04))"
        let fromWKT = try listing(box, ["--at", "40.05,10.05", "--within", wkt])
        #expect(fromWKT.count == 4)
        #expect(try listing(box, ["--at", "40.05,10.05", "--within", Self.pentagonWithHole]) == fromWKT)
        let stdin = try box.run(["nearby", "--json", "--radius", "100km", "--at", "40.05,10.05", "--within", "@-"], input: wkt)
        #expect((stdin.json as? [Any])?.count == 4, "\(stdin)")
        let file = box.home.appendingPathComponent("area.wkt")
        try wkt.write(to: file, atomically: true, encoding: .utf8)
        let bare = try box.run(["nearby", "--at", "40.05,10.05", "--within", file.path])
        #expect(bare.status == Exit.inputRejected && bare.stderr.hasSuffix("(to read the file \(file.path), write @\(file.path))\n"),
                "a file named without @ gets the hint: \(bare)")
        let folder = try box.run(["nearby", "--at", "40.05,10.05", "--within", box.home.path])
        #expect(folder.status == Exit.inputRejected && !folder.stderr.contains("to read the file"), "a folder does not: \(folder)")
        let empty = try box.run(["nearby", "--at", "40.05,10.05", "--within", "0,0,1,1"])
        #expect(empty.status == Exit.success && empty.stdout.isEmpty && empty.stderr == "No posts within 100 km in the area.\n", "\(empty)")
    }

    @Test("posts in a hole nearer than the rest do not crowd out the limit", arguments: WallKind.allCases)
    func holeAndLimit(_ kind: WallKind) throws {
        // Five posts in the hole around the place asked from, then three outside it, farther.
        let inHole = (1...5).map { ("hole \($0)", "40.05,\(10.05 + Double($0) * 0.001)") }
        let outside = (1...3).map { ("ring \($0)", "40.0\($0),10.02") }
        let box = try wall(kind, inHole + outside)
        let listed = try listing(box, ["--at", "40.05,10.05", "--within", Self.pentagonWithHole, "--limit", "2"])
        #expect(listed.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["ring 3", "ring 2"], "\(listed)")
    }

    @Test("a polygon of 200 corners (sent to a server as its bounds) keeps out the posts in its bounds' corners",
          arguments: WallKind.allCases)
    func manyCorners(_ kind: WallKind) throws {
        let ring = (0...200).map { step -> String in
            let angle = Double(step % 200) / 200 * 2 * Double.pi
            return "\(10.05 + 0.04 * cos(angle)) \(40.05 + 0.04 * sin(angle))"
        }
        let circle = "POLYGON ((\(ring.joined(separator: ", "))))"
        let box = try wall(kind, [("corner 1", "40.012,10.012"), ("corner 2", "40.013,10.012"), ("corner 3", "40.012,10.013"),
                                   ("inside A", "40.05,10.05"), ("inside B", "40.07,10.05")])
        let listed = try listing(box, ["--at", "40.01,10.01", "--within", circle, "--limit", "2"])
        #expect(listed.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["inside A", "inside B"], "\(listed)")
    }

    @Test("a box across the antimeridian holds both sides of it", arguments: WallKind.allCases)
    func antimeridianBox(_ kind: WallKind) throws {
        let box = try wall(kind, [("east of 180", "0,179.5"), ("west of 180", "0,-179.5"), ("too far west", "0,178"),
                                   ("too far north", "2,179.5"), ("on the box edge", "1,-179.2")])
        let area = ["--at", "0,179.9", "--search-distance", "1000km", "--within", "179,-1,-179,1"]
        let listed = try listing(box, area, radius: "1000km")
        #expect(listed.map { String($0.split(separator: " ").dropLast().joined(separator: " ")) }
                == ["east of 180", "west of 180", "on the box edge"], "\(listed)")
        #expect(try listing(box, ["--at", "0,179.9", "--search-distance", "1000km", "--within", "[179, -1, -179, 1]"], radius: "1000km") == listed,
                "the GeoJSON bbox form is the same box")
    }

    @Test("invalid areas are refused with one line, GEOS's reason, and nothing on stdout", arguments: WallKind.allCases)
    func refused(_ kind: WallKind) throws {
        let box = try wall(kind, [("inside", "40.02,10.02")])
        let cases: [(area: String, says: String)] = [
            ("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))", "the area is not a valid polygon: Self-intersection[5 5]"),
            (#"{"type":"Polygon","coordinates":[[[0,0],[10,10],[10,0],[0,10],[0,0]]]}"#, "Self-intersection[5 5]"),
            ("POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0), (5 5, 6 5, 6 6, 5 6, 5 5))", "Hole lies outside shell"),
            ("POLYGON ((40 10, 40.1 10, 40.1 100, 40 10))", "longitude first"),
            (#"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#, "an area must be a Polygon or MultiPolygon, not a LineString"),
            ("POLYGON ((0 0, 1 0, 1 1", "bad WKT"),
            ("{\"type\":\"Polygon\"", "bad GeoJSON"),
            ("10,40,10.1", "expected four numbers WEST,SOUTH,EAST,NORTH"),
            ("10,40.1,10.1,40", "SOUTH 40.1 must be below NORTH 40.0"),
        ]
        for (area, says) in cases {
            let run = try box.run(["nearby", "--at", "40.05,10.05", "--within", area])
            #expect(run.status == Exit.inputRejected && run.stdout.isEmpty, "\(area): \(run)")
            #expect(run.stderr.hasPrefix("anywall: ") && run.stderr.contains(says), "\(area): \(run)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(area): \(run)")
        }
        let missing = try box.run(["nearby", "--at", "40.05,10.05", "--within", "@/no/such/area.geojson"])
        #expect(missing.status == Exit.fileUnreadable && missing.stderr == "anywall: cannot read the area file /no/such/area.geojson\n", "\(missing)")
    }
}
