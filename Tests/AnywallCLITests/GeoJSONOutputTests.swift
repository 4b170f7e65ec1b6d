import Foundation
import TestSupport
import Testing

@Suite("--geojson output, read by an independent GeoJSON library")
struct GeoJSONOutputTests {
    /// Reads a FeatureCollection from stdin with Python's `geojson` (PyPI) and shapely, checks it is
    /// valid RFC 7946 made of Point features, and prints what each feature says.
    static let reader = """
        import json, sys, geojson
        from shapely.geometry import shape
        text = sys.stdin.read()
        collection = geojson.loads(text)
        assert isinstance(collection, geojson.FeatureCollection), type(collection).__name__
        assert collection.is_valid, collection.errors()
        for feature in collection["features"]:
            assert isinstance(feature, geojson.Feature) and feature.is_valid, feature.errors()
            assert isinstance(feature.geometry, geojson.Point), type(feature.geometry).__name__
        # geojson rounds coordinates to 6 places when it builds its objects: read them with shapely.
        rows = []
        for feature in json.loads(text)["features"]:
            point = shape(feature["geometry"])
            rows.append({"id": feature["id"], "lon": repr(point.x), "lat": repr(point.y), "text": feature["properties"]["text"],
                         "visible": feature["properties"]["visible"], "distance": feature["properties"]["distanceMeters"]})
        print(json.dumps(rows))
        """

    @Test("a listing and --changes events are valid GeoJSON, [lon, lat] at full precision, hidden text null",
          arguments: WallKind.allCases)
    func validated(_ kind: WallKind) throws {
        let box = try Sandbox(kind)
        try box.signUp("alice")
        #expect(try box.run(["post", "Free coffee", "--at", "37.779312345678901,-122.419298765432109"]).status == Exit.success)
        #expect(try box.run(["post", "Far away secret", "--at", "37.8024,-122.4058"]).status == Exit.success)
        try FileManager.default.createDirectory(at: box.home, withIntermediateDirectories: true)
        try Self.reader.write(to: box.home.appendingPathComponent("read_geojson.py"), atomically: true, encoding: .utf8)

        for extra in [[String](), ["--changes"]] {
            let run = try box.shell("""
                set -o pipefail
                "$ANYWALL" nearby --at 37.7793,-122.4193 --geojson \(extra.joined(separator: " ")) | python3 "$HOME/read_geojson.py"
                """)
            #expect(run.status == 0, "\(extra): \(run)")
            guard run.status == 0 else { continue }
            let rows = run.json as! [[String: Any]]
            #expect(rows.count == 2, "\(rows)")
            // Python's repr is the shortest text that reads back as the same double, as Swift's is.
            #expect(rows[0]["lon"] as? String == "\(-122.419298765432109)" && rows[0]["lat"] as? String == "\(37.779312345678901)",
                    "longitude first, every digit kept: \(rows[0])")
            #expect(rows[0]["text"] as? String == "Free coffee" && rows[0]["visible"] as? Bool == true)
            #expect(rows[1]["text"] is NSNull && rows[1]["visible"] as? Bool == false, "hidden: \(rows[1])")
            #expect((rows[1]["distance"] as? Double ?? 0) > 1000)
            #expect(rows.allSatisfy { ($0["id"] as? String)?.isEmpty == false })
        }
    }
}
