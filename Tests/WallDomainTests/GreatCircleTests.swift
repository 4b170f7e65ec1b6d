import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("Great-circle distances and bounding boxes")
struct GreatCircleTests {
    @Test("one degree of latitude is 111.19 km on the 6371 km sphere")
    func oneDegree() throws {
        let d = try GeoPoint(latitude: 10, longitude: 20).distance(to: GeoPoint(latitude: 11, longitude: 20))
        #expect(abs(d.meters - 6_371_000 * .pi / 180) < 1e-6)
    }

    @Test("distances agree with the WGS84 geodesic (geographiclib) to within 0.6 %")
    func agreesWithGeographiclib() throws {
        var rng = SeededGenerator(seed: 42)
        var pairs: [(GeoPoint, GeoPoint)] = []
        for _ in 0..<2000 {
            let a = try GeoPoint(latitude: Double.random(in: -89.9...89.9, using: &rng), longitude: Double.random(in: -179.9...179.9, using: &rng))
            // Near pairs (what a wall queries) and far ones (up to half the globe).
            let spread = Bool.random(using: &rng) ? 1.5 : 90
            let b = try GeoPoint(latitude: max(-89.9, min(89.9, a.latitude + Double.random(in: -spread...spread, using: &rng))),
                                 longitude: Double.random(in: -179.9...179.9, using: &rng))
            pairs.append((a, b))
        }
        let input = pairs.map { "\($0.0.latitude) \($0.0.longitude) \($0.1.latitude) \($0.1.longitude)" }.joined(separator: "\n")
        let geodesic = try Python.run("""
            import sys
            from geographiclib.geodesic import Geodesic
            for line in sys.stdin:
                a, b, c, d = map(float, line.split())
                print(repr(Geodesic.WGS84.Inverse(a, b, c, d)["s12"]))
            """, input: input).split(separator: "\n").map { Double($0)! }
        #expect(geodesic.count == pairs.count)
        var worst = 0.0
        for (pair, reference) in zip(pairs, geodesic) where reference > 1 {
            worst = max(worst, abs(pair.0.distance(to: pair.1).meters - reference) / reference)
        }
        #expect(worst < 0.006, "worst relative difference \(worst)")
        #expect(worst > 0.001, "a sphere differs from the ellipsoid somewhere; the comparison did not run")
    }

    @Test("a circle across the antimeridian is covered by two boxes, one on each side")
    func antimeridian() throws {
        let boxes = BoundingBox.covering(center: try GeoPoint(latitude: 0, longitude: 179.99), radius: .kilometers(10))
        #expect(boxes.count == 2)
        #expect(boxes.contains { $0.contains(try! GeoPoint(latitude: 0, longitude: -179.99)) })
        #expect(boxes.contains { $0.contains(try! GeoPoint(latitude: 0, longitude: 179.95)) })
        #expect(boxes.allSatisfy { $0.minLongitude <= $0.maxLongitude })
    }

    @Test("a circle around a pole spans every longitude")
    func pole() throws {
        let boxes = BoundingBox.covering(center: try GeoPoint(latitude: 89.5, longitude: 0), radius: .kilometers(100))
        #expect(boxes == [BoundingBox(minLatitude: boxes[0].minLatitude, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)])
        #expect(boxes[0].contains(try GeoPoint(latitude: 89.8, longitude: 180 - 1e-9)))
    }

    @Test("boxes hold every point of the circle, whatever the place", arguments: [0.0, 45, 70, 85, 89, -60, -88])
    func boxesCoverCircle(latitude: Double) throws {
        var rng = SeededGenerator(seed: UInt64(latitude.magnitude * 100))
        let center = try GeoPoint(latitude: latitude, longitude: 179.5)
        let radius = Distance.kilometers(100)
        let boxes = BoundingBox.covering(center: center, radius: radius)
        for _ in 0..<5000 {
            let p = try GeoPoint(latitude: Double.random(in: max(-89.99, latitude - 3)...min(89.99, latitude + 3), using: &rng),
                                 longitude: Double.random(in: -179.99...179.99, using: &rng))
            if center.distance(to: p) <= radius {
                #expect(boxes.contains { $0.contains(p) }, "\(p) is within \(radius) of \(center) but in no box")
            }
        }
    }
}
