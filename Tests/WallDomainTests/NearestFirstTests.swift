import Testing
import WallDomain

/// Anywall's nearest-first order: distance first, then objectId, whatever order posts come in.
@Suite("NearestFirst")
struct NearestFirstTests {
    private struct Placed: NearestFirst.Placed {
        let location: GeoPoint
        let objectId: String
    }

    @Test("nearer first; at the same distance, by objectId; the order posts came in does not count")
    func order() throws {
        let center = try GeoPoint(latitude: 10, longitude: 20)
        let east = try GeoPoint(latitude: 10, longitude: 20.01), near = try GeoPoint(latitude: 10, longitude: 20.005)
        let far = try GeoPoint(latitude: 10.5, longitude: 20)
        let posts = [Placed(location: far, objectId: "a"), Placed(location: east, objectId: "z"), Placed(location: near, objectId: "x"),
                     Placed(location: east, objectId: "b")]
        let order = NearestFirst(around: center)
        #expect(posts.sorted(by: order.precedes).map(\.objectId) == ["x", "b", "z", "a"])
        #expect(posts.reversed().sorted(by: order.precedes).map(\.objectId) == ["x", "b", "z", "a"])
        #expect(order.rank(east, "b") < order.rank(east, "z") && order.rank(center, "z") < order.rank(east, "a"))
    }
}
