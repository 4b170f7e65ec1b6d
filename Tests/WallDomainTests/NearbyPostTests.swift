import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("The post JSON shape and visibility")
struct NearbyPostTests {
    private let here = try! GeoPoint(latitude: 37.7793, longitude: -122.4193)

    @Test("a hidden post has null text and author and keeps its place and distance")
    func hidden() throws {
        let post = Post(objectId: "x", text: "secret", location: try here.moved(.meters(1500), bearing: 90), author: "mallory",
                        createdAt: Date(timeIntervalSince1970: 1_795_000_000))
        let view = NearbyPost(post, from: here, filterRadius: .meters(1000))
        let json = String(decoding: try JSONEncoder().encode(view), as: UTF8.self)
        #expect(!json.contains("secret") && !json.contains("mallory"))
        #expect(json.contains("\"text\":null") && json.contains("\"author\":null") && json.contains("\"visible\":false"))
        #expect(json.contains("\"distanceMeters\":1500"))
        #expect(json.contains("\"createdAt\":\"2026-11-18T"))
    }

    @Test("round-trips through JSON with full-precision coordinates")
    func roundTrip() throws {
        let place = try GeoPoint(latitude: 37.123456789012345, longitude: -122.98765432109876)
        let view = NearbyPost(Post(objectId: "y", text: "hi", location: place, author: nil, createdAt: Date(timeIntervalSince1970: 1.5)),
                              from: here, filterRadius: .kilometers(200))
        let back = try JSONDecoder().decode(NearbyPost.self, from: try JSONEncoder().encode(view))
        #expect(back.location == place)
        #expect(back.text == "hi" && back.author == nil && back.visible)
    }
}
