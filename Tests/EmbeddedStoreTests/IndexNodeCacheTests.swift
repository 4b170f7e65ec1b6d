import EmbeddedStore
import Foundation
import TestSupport
import Testing
import WallDomain

/// A long-lived wall keeps the location index's nodes its searches read (`IndexNodeCache`): a
/// search must still see the wall as it is now, whoever changed it.
@Suite("Index nodes kept between nearest searches")
struct IndexNodeCacheTests {
    private let place = try! GeoPoint(latitude: -33.8688, longitude: 151.2093)

    /// The texts of the 5 nearest posts to `place`, nearest first.
    private func nearest(_ wall: EmbeddedWall) throws -> [String] {
        try wall.nearby(try WallQuery(center: place, limit: 5)).map(\.text)
    }

    @Test("a post another process adds, moves or deletes shows at the next search")
    func changedElsewhere() throws {
        // 2,000 posts within ~20 km: a tree of many leaves under inner nodes, all of them read near `place`.
        var rng = SeededGenerator(seed: 7)
        let wall = try temporaryWall()
        _ = try wall.importPosts(try (0..<2_000).map { i in
            let point = try place.moved(.meters(Double.random(in: 200...20_000, using: &rng)), bearing: Double.random(in: 0..<360, using: &rng))
            return try JSONDecoder().decode(ImportedPost.self, from: Data("""
                {"objectId":"p\(i)","text":"far \(i)","location":{"latitude":\(point.latitude),"longitude":\(point.longitude)}}
                """.utf8))
        })
        let before = try nearest(wall)
        #expect(before.count == 5)

        // Another connection to the same file, as another process would be.
        let other = try EmbeddedWall(file: wall.file)
        let session = try other.signUp(username: "bob", password: "pw", name: nil)
        let added = try other.createPost(text: "right here", at: place, session: session, requestId: "r1")
        #expect(try nearest(wall) == ["right here"] + before.prefix(4))

        _ = try other.updatePost(objectId: added.objectId, changes: PostChanges(location: try place.moved(.kilometers(60), bearing: 90)),
                                 by: .session(session.token), requestId: "r2")
        #expect(try nearest(wall) == before)

        let back = try other.createPost(text: "back again", at: place, session: session, requestId: "r3")
        #expect(try nearest(wall).first == "back again")
        try other.deletePost(objectId: back.objectId, by: .session(session.token))
        #expect(try nearest(wall) == before)
    }
}
