import EmbeddedStore
import Foundation
import TestSupport
import Testing
import WallDomain
import WallStorage

/// A find over an area reads its candidates through the location index when the area holds few
/// posts, and every post's row when it holds many (a fifteenth of the wall or more): either way,
/// exactly the posts whose place lies in one of the boxes, edges included.
@Suite("Posts in an area, by the index or by every row")
struct AreaScanTests {
    private static let dense = BoundingBox(minLatitude: 10, maxLatitude: 11, minLongitude: 20, maxLongitude: 21)

    /// 2,000 posts in `dense`, 1,000 anywhere, and one on each edge and corner of `dense`.
    private static func wall() throws -> (EmbeddedWall, [String: GeoPoint]) {
        var rng = SeededGenerator(seed: 23)
        var places: [GeoPoint] = []
        for _ in 0..<2_000 {
            places.append(try GeoPoint(latitude: Double.random(in: 10...11, using: &rng), longitude: Double.random(in: 20...21, using: &rng)))
        }
        for _ in 0..<1_000 {
            places.append(try GeoPoint(latitude: Double.random(in: -90...90, using: &rng), longitude: Double.random(in: -180...180, using: &rng)))
        }
        for (latitude, longitude) in [(10.0, 20.5), (11.0, 20.5), (10.5, 20.0), (10.5, 21.0), (10.0, 20.0), (11.0, 21.0), (9.9999999, 20.5), (10.5, 21.0000001)] {
            places.append(try GeoPoint(latitude: latitude, longitude: longitude))
        }
        let wall = try temporaryWall()
        _ = try wall.importPosts(try places.enumerated().map { i, place in
            try JSONDecoder().decode(ImportedPost.self, from: Data("""
                {"objectId":"p\(i)","text":"post \(i)","location":{"latitude":\(place.latitude),"longitude":\(place.longitude)}}
                """.utf8))
        })
        return (wall, Dictionary(uniqueKeysWithValues: places.enumerated().map { ("p\($0.offset)", $0.element) }))
    }

    @Test("the posts of dense, sparse, world-wide and split areas, whole or by their places, as a test of every post finds them")
    func matchesEveryPost() throws {
        let (wall, places) = try Self.wall()
        let areas: [(name: String, boxes: [BoundingBox])] = [
            ("the dense box: every row read", [Self.dense]),
            ("a corner of it: through the index", [BoundingBox(minLatitude: 10, maxLatitude: 10.2, minLongitude: 20, maxLongitude: 20.2)]),
            ("the whole earth", [BoundingBox(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)]),
            ("two boxes either side of the antimeridian", [BoundingBox(minLatitude: -60, maxLatitude: 60, minLongitude: 170, maxLongitude: 180),
                                                          BoundingBox(minLatitude: -60, maxLatitude: 60, minLongitude: -180, maxLongitude: -170)]),
            ("the dense box and a far one", [Self.dense, BoundingBox(minLatitude: -40, maxLatitude: -30, minLongitude: -80, maxLongitude: -60)]),
        ]
        for (name, boxes) in areas {
            let expected = Set(places.filter { _, place in boxes.contains { $0.contains(place) } }.keys)
            var whole: Set<String> = []
            try wall.forEachStoredPost(inAny: boxes, where: .always) { whole.insert($0.objectId) }
            #expect(whole == expected, "\(name): whole posts")
            var placed: [PlacedPost] = []
            let chosen = try wall.placedPosts(inAny: boxes, where: .always, offer: { placed.append($0) }, chosen: { placed.suffix(3).map(\.rowId) })
            #expect(Set(placed.map(\.objectId)) == expected && placed.count == expected.count, "\(name): places")
            #expect(placed.allSatisfy { places[$0.objectId] == $0.location }, "\(name): exact places")
            #expect(chosen.map(\.objectId) == placed.suffix(3).map(\.objectId), "\(name): the chosen posts, whole, in their order")
        }
        #expect(places.values.filter { Self.dense.contains($0) }.count == 2_006, "2,000 inside and six on its edges: the index is not read")
    }
}
