import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("Latitude bands of a circle")
struct LatitudeBandTests {
    /// The largest error of a stored coordinate the bands must allow for (degrees).
    private let margin = 1.0 / 65_536

    @Test("a city-sized circle keeps its one box, which owns every latitude")
    func smallCircle() throws {
        let center = try GeoPoint(latitude: 51.5, longitude: -0.12)
        let bands = LatitudeBand.bands(covering: center, radius: .kilometers(5), margin: margin)
        #expect(bands.count == 1)
        #expect(bands[0].boxes == BoundingBox.covering(center: center, radius: .kilometers(5)))
        #expect(bands[0].owns(latitude: -90) && bands[0].owns(latitude: 90))
    }

    @Test("a circle over a pole is cut into bands, nearest its center first, narrower away from the pole")
    func polarCircle() throws {
        let center = try GeoPoint(latitude: 80, longitude: 10)
        let bands = LatitudeBand.bands(covering: center, radius: .kilometers(2_000), margin: margin)
        #expect(bands.count > 1)
        #expect(bands[0].owns(latitude: 80))
        let gaps = bands.map { band in band.boxes.map { max($0.minLatitude - 80, 80 - $0.maxLatitude, 0) }.min()! }
        #expect(gaps == gaps.sorted())
        let southernmost = bands.min { $0.lower < $1.lower }!
        #expect(southernmost.boxes.reduce(0) { $0 + $1.maxLongitude - $1.minLongitude } < 90)
        #expect(bands.contains { $0.boxes.contains { $0.minLongitude == -180 && $0.maxLongitude == 180 } })
    }

    @Test("at random places and radii, from a metre to 10,000 km, every point of the circle is in its band's boxes")
    func randomCircles() throws {
        var rng = SeededGenerator(seed: 2026)
        for _ in 0..<200 {
            let center = try GeoPoint(latitude: Double.random(in: -89.999...89.999, using: &rng), longitude: Double.random(in: -179.999...179.999, using: &rng))
            let radius = Distance.meters(pow(10, Double.random(in: 0...7, using: &rng)))
            let bands = LatitudeBand.bands(covering: center, radius: radius, margin: margin)
            for _ in 0..<300 {
                let p = try center.moved(.meters(Double.random(in: 0...radius.meters, using: &rng)), bearing: Double.random(in: 0..<360, using: &rng))
                guard center.distance(to: p) <= radius else { continue }
                let owners = bands.filter { $0.owns(latitude: p.latitude) }
                #expect(owners.count == 1, "\(p) around \(center), \(radius.meters) m: \(owners.count) owners")
                #expect(owners.first?.boxes.contains { $0.contains(p) } == true, "\(p) is within \(radius.meters) m of \(center) but not in its band's boxes")
            }
        }
    }

    @Test("every point of the circle is in a box of the one band that owns its latitude",
          arguments: [(80.0, 10.0, 2_000.0), (-70, 90, 4_000), (89.9, 179.99, 2_300), (85, -179.5, 1_200),
                      (-89.99, 0, 500), (60, 179, 3_000), (0, 0, 9_000), (20, -100, 300)])
    func bandsCoverCircle(latitude: Double, longitude: Double, kilometers: Double) throws {
        var rng = SeededGenerator(seed: UInt64(kilometers))
        let center = try GeoPoint(latitude: latitude, longitude: longitude)
        let radius = Distance.kilometers(kilometers)
        let bands = LatitudeBand.bands(covering: center, radius: radius, margin: margin)
        var inside = 0
        for _ in 0..<20_000 {
            let p = try center.moved(.meters(Double.random(in: 0...radius.meters, using: &rng)), bearing: Double.random(in: 0..<360, using: &rng))
            guard center.distance(to: p) <= radius else { continue }
            inside += 1
            // A stored latitude is rounded down by up to the margin: the band owning it must still hold the point.
            let stored = p.latitude - Double.random(in: 0...margin, using: &rng)
            let owners = bands.filter { $0.owns(latitude: stored) }
            #expect(owners.count == 1, "\(p): \(owners.count) bands own latitude \(stored)")
            // The index's overlap test: the stored latitudes reach the box, the longitude is in it.
            let found = owners.first?.boxes.contains { box in
                stored <= box.maxLatitude && p.latitude >= box.minLatitude && box.minLongitude <= p.longitude && p.longitude <= box.maxLongitude
            }
            #expect(found == true, "\(p) is within \(radius) of \(center) but not in its band's boxes")
        }
        #expect(inside > 10_000)
    }
}
