import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("Areas through GEOS")
struct AreaTests {
    /// A concave polygon (an L) with a hole in its long arm, as WKT.
    static let ell = "POLYGON ((0 0, 4 0, 4 1, 1 1, 1 3, 0 3, 0 0), (2 0.25, 3 0.25, 3 0.75, 2 0.75, 2 0.25))"

    private func point(_ latitude: Double, _ longitude: Double) throws -> GeoPoint {
        try GeoPoint(latitude: latitude, longitude: longitude)
    }

    @Test("inside, outside, on an edge or a corner, in a hole and on the hole's edge")
    func covers() throws {
        let area = try Area(parsing: Self.ell)
        #expect(try area.covers(point(0.5, 0.5)), "inside")
        #expect(try area.covers(point(2, 0.5)), "inside the short arm")
        #expect(try !area.covers(point(2, 2)), "in the L's notch: outside")
        #expect(try !area.covers(point(-0.5, 1)), "outside")
        #expect(try area.covers(point(0, 2)), "on an edge")
        #expect(try area.covers(point(1, 1)), "on the inner corner")
        #expect(try !area.covers(point(0.5, 2.5)), "in the hole")
        #expect(try area.covers(point(0.25, 2.5)), "on the hole's edge: the polygon's boundary")
    }

    @Test("GeoJSON geometry, Feature and WKT read the same area; a FeatureCollection is joined")
    func forms() throws {
        let polygon = #"{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,1],[1,1],[1,3],[0,3],[0,0]],[[2,0.25],[3,0.25],[3,0.75],[2,0.75],[2,0.25]]]}"#
        let wkt = try Area(parsing: Self.ell)
        #expect(try Area(parsing: polygon) == wkt)
        #expect(try Area(parsing: #"{"type":"Feature","properties":{},"geometry":\#(polygon)}"#) == wkt)
        let collection = try Area(parsing: """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[1,1],[3,1],[3,3],[1,3],[1,1]]]}}]}
            """)
        #expect(collection.parts.count == 1, "overlapping features join into one polygon")
        #expect(try collection.covers(point(0.5, 0.5)))
        #expect(try collection.covers(point(2.5, 2.5)))
        #expect(try !collection.covers(point(2.5, 0.5)))
        let multi = try Area(parsing: "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))")
        #expect(multi.parts.map(\.isBox) == [true, false])
        #expect(try multi.covers(point(5.5, 5.7)))
        #expect(try !multi.covers(point(3, 3)))
    }

    @Test("a box W,S,E,N, and across the antimeridian when west > east")
    func boxes() throws {
        let plain = try Area(parsing: "-10,35,5,44")
        #expect(plain.parts.count == 1 && plain.parts[0].isBox)
        #expect(plain.boxes == [BoundingBox(minLatitude: 35, maxLatitude: 44, minLongitude: -10, maxLongitude: 5)])
        #expect(try Area(parsing: "[-10, 35, 5, 44]") == plain)

        let fiji = try Area(parsing: "[177, -20, -178, -16]")
        #expect(fiji.boxes == [BoundingBox(minLatitude: -20, maxLatitude: -16, minLongitude: 177, maxLongitude: 180),
                               BoundingBox(minLatitude: -20, maxLatitude: -16, minLongitude: -180, maxLongitude: -178)])
        #expect(fiji.parts.filter(\.isBox).count == 2)
        for inside: (Double, Double) in [(-18, 178.4), (-18, -179.9), (-16, 179.99999)] {
            #expect(try fiji.covers(point(inside.0, inside.1)), "\(inside)")
        }
        for outside: (Double, Double) in [(-18, 0), (-18, -177), (-21, 179)] {
            #expect(try !fiji.covers(point(outside.0, outside.1)), "\(outside)")
        }
    }

    @Test("invalid shapes are refused with GEOS's reason")
    func refused() throws {
        func message(_ text: String) -> String {
            do {
                _ = try Area(parsing: text)
                return "accepted"
            } catch let error as AnywallError {
                return error.reason
            } catch {
                return "\(error)"
            }
        }
        #expect(message("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))") == "the area is not a valid polygon: Self-intersection[5 5]")
        #expect(message("POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0), (5 5, 6 5, 6 6, 5 6, 5 5))").contains("Hole lies outside shell"))
        #expect(message("POINT (1 2)") == "an area must be a Polygon or MultiPolygon, not a Point")
        #expect(message("POLYGON EMPTY") == "the area is empty")
        #expect(message("   ") == "the area is empty")
        #expect(message("POLYGON ((10 40, 10 41, 11 41, 10 40") .hasPrefix("bad WKT: "))
        #expect(message("POLYGON ((-122 37, -122 38, -200 38, -122 37))").contains("longitude first"))
        #expect(message(#"{"type":"Polygon","coordinates":[[[0,0],[1,0]]]}"#).hasPrefix("bad GeoJSON") ||
                message(#"{"type":"Polygon","coordinates":[[[0,0],[1,0]]]}"#).hasPrefix("bad polygon"))
        #expect(message("1,2,3") == "bad box '1,2,3': expected four numbers WEST,SOUTH,EAST,NORTH in degrees")
        #expect(message("0,10,5,10").contains("no area"))
        #expect(message("0,-95,5,10") == "bad box '0,-95,5,10': SOUTH -95.0 is not a latitude (-90 to 90); "
                + "latitude and longitude swapped? A box is WEST,SOUTH,EAST,NORTH, longitude first")
        #expect(message("0,-95,100,10") == "bad box '0,-95,100,10': SOUTH -95.0 is not a latitude (-90 to 90)")
        #expect(message("37.77,-122.43,37.79,-122.40")
                == "bad box '37.77,-122.43,37.79,-122.40': SOUTH -122.43 is not a latitude (-90 to 90); "
                + "latitude and longitude swapped? A box is WEST,SOUTH,EAST,NORTH, longitude first")
        #expect(message("5,44,10,35").hasSuffix("it has no area: SOUTH 44.0 must be below NORTH 35.0"))
    }

    @Test("a polygon from its corners, as anywall-server reads $polygon")
    func fromCorners() throws {
        let triangle = try Area(polygon: [AreaVertex(latitude: 0, longitude: 0), AreaVertex(latitude: 0, longitude: 2),
                                          AreaVertex(latitude: 2, longitude: 0)])
        #expect(try triangle.covers(point(0.5, 0.5)))
        #expect(try triangle.covers(point(1, 1)), "on the edge")
        #expect(try !triangle.covers(point(1.5, 1.5)))
        #expect(throws: AnywallError.self) { try Area(polygon: [AreaVertex(latitude: 0, longitude: 0), AreaVertex(latitude: 1, longitude: 1)]) }
    }

    @Test("agrees with shapely on 3,000 points, corners and edge midpoints included")
    func agreesWithShapely() throws {
        let shapes = [Self.ell, "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 1, 0 0)), ((2 2, 3.5 2, 2.5 3.25, 2 2)))"]
        var rng = SeededGenerator(seed: 42)
        var points = (0..<3000).map { _ in (Double.random(in: -0.5...3.5, using: &rng), Double.random(in: -0.5...4.5, using: &rng)) }
        // Corners and midpoints of edges lie exactly on the boundary.
        points += [(0, 0), (1, 1), (0.5, 4), (3, 1), (0.25, 2.5), (0.5, 3), (2, 2), (2.625, 3), (2, 3)]
        for wkt in shapes {
            let area = try Area(parsing: wkt)
            let mine = try points.map { try area.covers(GeoPoint(latitude: $0.0, longitude: $0.1)) ? "1" : "0" }.joined()
            let input = points.map { "\($0.1) \($0.0)" }.joined(separator: "\n")
            let theirs = try Python.run("""
                import sys
                from shapely import wkt
                from shapely.geometry import Point
                area = wkt.loads(\(pythonString(wkt)))
                print("".join("1" if area.covers(Point(float(x), float(y))) else "0" for x, y in (l.split() for l in sys.stdin.read().splitlines())))
                """, input: input)
            #expect(mine == theirs.trimmingCharacters(in: .whitespacesAndNewlines), "\(wkt)")
            #expect(mine.contains("1") && mine.contains("0"))
        }
    }

    private func pythonString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
