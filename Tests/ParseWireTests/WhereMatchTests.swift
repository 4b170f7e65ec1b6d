import EmbeddedStore
import Foundation
import ParseWire
import Testing
import WallDomain

/// A whole `where` tested on a post in memory (`WhereMatch`): the geo operators, `$maxDistanceIn*`
/// in each unit among them, beside the rest of the query language and the reader's rights.
@Suite("Where match: a whole where clause on a post in memory")
struct WhereMatchTests {
    static let center = try! GeoPoint(latitude: 37.7793, longitude: -122.4193)

    /// A post `meters` north of the centre.
    static func post(north meters: Double, text: String = "hello", access: PostAccess = .everyone) -> StoredPost {
        let degrees = meters / GreatCircle.earthRadius.meters * 180 / .pi
        return StoredPost(objectId: "p", text: text, location: try! GeoPoint(latitude: center.latitude + degrees, longitude: center.longitude),
                          author: nil, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0), access: access)
    }

    static func match(_ json: String, reader: PostReader = .master) throws -> WhereMatch {
        try WhereMatch(WhereClause(json: try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))), reader: reader, patterns: BoundedTextPatterns())
    }

    static let near = #""$nearSphere":{"__type":"GeoPoint","latitude":37.7793,"longitude":-122.4193}"#

    @Test("$nearSphere without a distance admits every place, however far")
    func nearWithoutDistance() throws {
        let match = try Self.match(#"{"location":{\#(Self.near)}}"#)
        #expect(match.clause.near?.maxDistance == nil)
        #expect(match.admits(Self.post(north: 5_000_000), schema: [:]))
    }

    @Test("$maxDistanceInKilometers, InMiles, InRadians and $maxDistance become the near distance, over Parse's radii",
          arguments: [("$maxDistanceInKilometers", 2.0, 2000.0 * GreatCircle.earthRadius.meters / 6_371_000),
                      ("$maxDistanceInMiles", 1.0, GreatCircle.earthRadius.meters / 3959),
                      ("$maxDistanceInRadians", 0.0005, 0.0005 * GreatCircle.earthRadius.meters),
                      ("$maxDistance", 0.0005, 0.0005 * GreatCircle.earthRadius.meters)])
    func maxDistance(name: String, value: Double, meters: Double) throws {
        let match = try Self.match(#"{"location":{\#(Self.near),"\#(name)":\#(value)}}"#)
        let distance = try #require(match.clause.near?.maxDistance)
        #expect(abs(distance.meters - meters) < 1e-6, "\(distance.meters) m")
        #expect(match.admits(Self.post(north: meters * 0.99), schema: [:]))
        #expect(!match.admits(Self.post(north: meters * 1.01), schema: [:]))
    }

    @Test("$within $box, $geoWithin $polygon and $centerSphere")
    func areas() throws {
        let box = try Self.match(#"{"location":{"$within":{"$box":[{"__type":"GeoPoint","latitude":37.77,"longitude":-122.43},{"__type":"GeoPoint","latitude":37.79,"longitude":-122.41}]}}}"#)
        #expect(box.admits(Self.post(north: 100), schema: [:]))
        #expect(!box.admits(Self.post(north: 2000), schema: [:]))
        let polygon = try Self.match(#"{"location":{"$geoWithin":{"$polygon":[[-122.43,37.77],[-122.41,37.77],[-122.42,37.79]]}}}"#)
        #expect(polygon.admits(Self.post(north: 100), schema: [:]))
        #expect(!polygon.admits(Self.post(north: 1500), schema: [:]))
        let circle = try Self.match(#"{"location":{"$geoWithin":{"$centerSphere":[[-122.4193,37.7793],0.0001]}}}"#)
        #expect(circle.admits(Self.post(north: 600), schema: [:]))
        #expect(!circle.admits(Self.post(north: 700), schema: [:]))
    }

    @Test("the place and the other fields must both hold, for the reader")
    func placeFieldsAndReader() throws {
        let match = try Self.match(#"{"location":{\#(Self.near),"$maxDistanceInKilometers":1},"text":{"$regex":"^hel"}}"#, reader: .user("u1"))
        #expect(match.admits(Self.post(north: 10), schema: [:]))
        #expect(!match.admits(Self.post(north: 10, text: "bye"), schema: [:]))
        #expect(!match.admits(Self.post(north: 2000), schema: [:]))
        let mine = try PostAccess(acl: ["u1": .read]), others = try PostAccess(acl: ["u2": .read])
        #expect(match.admits(Self.post(north: 10, access: mine), schema: [:]))
        #expect(!match.admits(Self.post(north: 10, access: others), schema: [:]))
        #expect(try Self.match("{}").admits(Self.post(north: 10, access: others), schema: [:]), "the master key reads every post")
    }

    @Test("$relatedTo (who holds a role), inside the author's sub-query, is refused with 102")
    func relatedToRefused() throws {
        let users = #"{"$relatedTo":{"object":{"__type":"Pointer","className":"_Role","objectId":"r1"},"key":"users"}}"#
        #expect(throws: ParseError.invalidQuery("anywall-server cannot match $relatedTo (who holds a role) live: subscribe without it")) {
            try Self.match(#"{"user":{"$inQuery":{"where":\#(users),"className":"_User"}}}"#)
        }
    }
}
