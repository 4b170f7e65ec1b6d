import EmbeddedStore
import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("Nearby query on the embedded wall")
struct EmbeddedNearbyTests {
    /// Imports posts at the given places, named by their index.
    private func wall(with places: [GeoPoint]) throws -> EmbeddedWall {
        let wall = try temporaryWall()
        let posts = try places.enumerated().map { i, p in
            try JSONDecoder().decode(ImportedPost.self, from: Data("""
                {"objectId":"p\(i)","text":"post \(i)","location":{"latitude":\(p.latitude),"longitude":\(p.longitude)},"author":"author\(i % 3)"}
                """.utf8))
        }
        _ = try wall.importPosts(posts)
        return wall
    }

    @Test("returns the 20 nearest, nearest first, with their authors")
    func twentyNearest() throws {
        let center = try GeoPoint(latitude: 37.7793, longitude: -122.4193)
        var rng = SeededGenerator(seed: 7)
        // 300 posts from 10 m to 120 km, in random directions and random order.
        let distances = (0..<300).map { _ in Double.random(in: 10...120_000, using: &rng) }
        let places = try distances.map { try center.moved(.meters($0), bearing: Double.random(in: 0..<360, using: &rng)) }
        let result = try wall(with: places).nearby(try WallQuery(center: center))
        let expected = distances.enumerated().filter { $0.element <= 100_000 }.sorted { $0.element < $1.element }.prefix(20).map { "p\($0.offset)" }
        #expect(result.map(\.objectId) == expected)
        #expect(result.allSatisfy { $0.author?.hasPrefix("author") == true })
        let found = result.map { center.distance(to: $0.location).meters }
        #expect(found == found.sorted())
    }

    @Test("finds a post 99.9 km away and not one 100.1 km away")
    func searchDistanceEdge() throws {
        let center = try GeoPoint(latitude: 48.8566, longitude: 2.3522)
        let wall = try wall(with: [try center.moved(.kilometers(99.9), bearing: 33), try center.moved(.kilometers(100.1), bearing: 211)])
        #expect(try wall.nearby(try WallQuery(center: center)).map(\.objectId) == ["p0"])
    }

    @Test("finds posts across the antimeridian, both ways")
    func antimeridian() throws {
        let wall = try wall(with: [try GeoPoint(latitude: 10, longitude: 179.99), try GeoPoint(latitude: 10, longitude: -179.99)])
        let fromWest = try wall.nearby(try WallQuery(center: GeoPoint(latitude: 10, longitude: -179.99)))
        let fromEast = try wall.nearby(try WallQuery(center: GeoPoint(latitude: 10, longitude: 179.99)))
        #expect(fromWest.map(\.objectId) == ["p1", "p0"])
        #expect(fromEast.map(\.objectId) == ["p0", "p1"])
    }

    @Test("finds a post across the pole, on the opposite meridian, about 78 km away")
    func acrossThePole() throws {
        let wall = try wall(with: [try GeoPoint(latitude: 89.8, longitude: -170), try GeoPoint(latitude: 88.7, longitude: 10)])
        let center = try GeoPoint(latitude: 89.5, longitude: 10)
        let result = try wall.nearby(try WallQuery(center: center))
        #expect(result.map(\.objectId) == ["p0", "p1"])
        let d = center.distance(to: result[0].location)
        #expect(abs(d.meters - 77_835) < 100)
    }

    @Test("honours the limit and a shorter search distance")
    func limitAndSearchDistance() throws {
        let center = try GeoPoint(latitude: -33.87, longitude: 151.21)
        let places = try (1...50).map { try center.moved(.kilometers(Double($0)), bearing: Double($0 * 7)) }
        let wall = try wall(with: places)
        #expect(try wall.nearby(try WallQuery(center: center, limit: 5)).map(\.objectId) == ["p0", "p1", "p2", "p3", "p4"])
        #expect(try wall.nearby(try WallQuery(center: center, searchDistance: .kilometers(10.5), limit: 1000)).count == 10)
        #expect(throws: AnywallError.self) { try WallQuery(center: center, limit: 0) }
        #expect(throws: AnywallError.self) { try WallQuery(center: center, limit: 1001) }
    }

    @Test("is exact when the nearest posts lie just outside a growth ring")
    func ringBoundaries() throws {
        let center = try GeoPoint(latitude: 51.5, longitude: -0.12)
        // 19 posts just inside 1 km, many between 1 and 4 km, one at 1.0001 km that must win place 20.
        var places = try (0..<19).map { try center.moved(.meters(990), bearing: Double($0 * 19)) }
        places.append(try center.moved(.meters(1000.1), bearing: 5))
        places += try (0..<40).map { try center.moved(.meters(1000.1 + Double($0 + 1) * 50), bearing: Double($0 * 9)) }
        let result = try wall(with: places).nearby(try WallQuery(center: center))
        #expect(result.count == 20)
        #expect(result.last?.objectId == "p19")
    }

    @Test("matches a brute-force search at any density, from dense clusters to empty ocean")
    func matchesBruteForce() throws {
        var rng = SeededGenerator(seed: 99)
        let cities = try (0..<4).map { _ in try GeoPoint(latitude: Double.random(in: -50...60, using: &rng), longitude: Double.random(in: -170...170, using: &rng)) }
        var places: [GeoPoint] = []
        for _ in 0..<4000 {
            let city = cities.randomElement(using: &rng)!
            // Dense cores (tens of metres) and sparse suburbs (tens of kilometres).
            let spread = [0.05, 0.5, 5, 60].randomElement(using: &rng)!
            places.append(try city.moved(.kilometers(Double.random(in: 0...spread, using: &rng)), bearing: Double.random(in: 0..<360, using: &rng)))
        }
        let wall = try wall(with: places)
        for i in 0..<150 {
            let base = cities[i % cities.count]
            let center = try base.moved(.kilometers(Double.random(in: 0...150, using: &rng) * (i % 3 == 0 ? 0.01 : 1)), bearing: Double.random(in: 0..<360, using: &rng))
            let limit = [1, 5, 20, 100].randomElement(using: &rng)!
            let expected = places.enumerated()
                .map { (id: "p\($0.offset)", distance: center.distance(to: $0.element).meters) }
                .filter { $0.distance <= 100_000 }
                .sorted { $0.distance < $1.distance }
                .prefix(limit).map(\.id)
            #expect(try wall.nearby(try WallQuery(center: center, limit: limit)).map(\.objectId) == Array(expected), "at \(center), limit \(limit)")
        }
    }

    @Test("is exact when a ring grown from an empty place reaches a dense one, which it does not read whole")
    func ringGrownIntoDensePlace() throws {
        var rng = SeededGenerator(seed: 5)
        // Near a pole the rings are read in latitude bands (across the antimeridian, too).
        let centers = [try GeoPoint(latitude: 80, longitude: 10), try GeoPoint(latitude: 0, longitude: -30),
                       try GeoPoint(latitude: -89.9, longitude: 0), try GeoPoint(latitude: 75, longitude: 179.5)]
        // Around each center: nothing within 1,000 km; a few posts at 1,100-1,600 km; a city of 6,000
        // posts 3,000 km away, which the ring grown past 1,024 km (to 4,096) reaches first.
        var places: [GeoPoint] = []
        for center in centers {
            places += try (0..<30).map { _ in try center.moved(.kilometers(Double.random(in: 1_100...1_600, using: &rng)),
                                                                bearing: Double.random(in: 0..<360, using: &rng)) }
            let city = try center.moved(.kilometers(3_000), bearing: 100)
            places += try (0..<6_000).map { _ in try city.moved(.meters(Double.random(in: 0...5_000, using: &rng)),
                                                                bearing: Double.random(in: 0..<360, using: &rng)) }
        }
        let wall = try wall(with: places)
        for center in centers {
            for limit in [1, 20, 100] {
                let expected = places.enumerated()
                    .map { (id: "p\($0.offset)", distance: center.distance(to: $0.element).meters) }
                    .sorted { $0.distance < $1.distance }
                    .prefix(limit).map(\.id)
                let query = try WallQuery(center: center, searchDistance: WallQuery.wholeEarth, limit: limit)
                #expect(try wall.nearby(query).map(\.objectId) == Array(expected), "at \(center), limit \(limit)")
            }
        }
    }

    @Test("with an area by a pole: matches a brute-force search over the whole earth")
    func polarAreaMatchesBruteForce() throws {
        var rng = SeededGenerator(seed: 17)
        let places = try (0..<3000).map { _ in
            try GeoPoint(latitude: Double.random(in: 60...89.99, using: &rng), longitude: Double.random(in: -179.99...179.99, using: &rng))
        }
        let wall = try wall(with: places)
        let area = try Area(parsing: "-60,75,60,88")
        for center in [try GeoPoint(latitude: 85, longitude: 170), try GeoPoint(latitude: 80, longitude: 0), try GeoPoint(latitude: 89.9, longitude: -90)] {
            for limit in [1, 20, 100] {
                let expected = places.enumerated()
                    .filter { area.covers($0.element) }
                    .map { (id: "p\($0.offset)", distance: center.distance(to: $0.element).meters) }
                    .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
                    .prefix(limit).map(\.id)
                let query = try WallQuery(center: center, searchDistance: WallQuery.wholeEarth, limit: limit, within: area)
                #expect(try wall.nearby(query).map(\.objectId) == Array(expected), "from \(center), limit \(limit)")
            }
        }
    }

    @Test("with an area: matches a brute-force search, the area near, far, holed, or split by the antimeridian")
    func areaMatchesBruteForce() throws {
        var rng = SeededGenerator(seed: 5)
        let city = try GeoPoint(latitude: 48.85, longitude: 2.35)
        let places = try (0..<3000).map { _ in
            try city.moved(.kilometers(Double.random(in: 0...[0.2, 3, 40].randomElement(using: &rng)!, using: &rng)),
                           bearing: Double.random(in: 0..<360, using: &rng))
        }
        let fiji = try (0..<200).map { _ in
            try GeoPoint(latitude: Double.random(in: -19...(-17), using: &rng), longitude: [Double.random(in: 178...179.999, using: &rng),
                                                                                         Double.random(in: -179.999...(-179), using: &rng)].randomElement(using: &rng)!)
        }
        let wall = try wall(with: places + fiji)
        let areas = [
            // The city's heart with a hole in it; a ring of suburbs 20 km out; a box across 180°.
            "POLYGON ((2.3 48.82, 2.4 48.82, 2.4 48.88, 2.3 48.88, 2.3 48.82), (2.34 48.84, 2.36 48.84, 2.36 48.86, 2.34 48.86, 2.34 48.84))",
            "MULTIPOLYGON (((2.6 48.8, 2.7 48.8, 2.7 48.9, 2.6 48.9, 2.6 48.8)), ((1.9 48.7, 2.0 48.7, 2.0 49.0, 1.9 48.7)))",
            "178.5,-18.5,-179.5,-17.5",
        ]
        for (index, text) in areas.enumerated() {
            let area = try Area(parsing: text)
            let centers = index == 2 ? [try GeoPoint(latitude: -18, longitude: 179.9), try GeoPoint(latitude: -18.2, longitude: -179.8)]
                                     : [city, try city.moved(.kilometers(15), bearing: 80)]
            for center in centers {
                for limit in [1, 20, 100] {
                    let expected = (places + fiji).enumerated()
                        .filter { area.covers($0.element) }
                        .map { (id: "p\($0.offset)", distance: center.distance(to: $0.element).meters) }
                        .filter { $0.distance <= 100_000 }
                        .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
                        .prefix(limit).map(\.id)
                    let found = try wall.nearby(try WallQuery(center: center, limit: limit, within: area)).map(\.objectId)
                    #expect(found == Array(expected), "\(text) from \(center), limit \(limit)")
                    #expect(!found.isEmpty)
                }
            }
        }
    }
}
