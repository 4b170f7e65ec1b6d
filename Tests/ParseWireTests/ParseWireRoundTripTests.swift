import Foundation
import ParseWire
import Testing
import WallDomain

/// Every shape the wire target writes is read back as the same value, through `JSONValue` (what
/// the server writes) and through `Codable` (what the client reads).
@Suite("Parse wire shapes round-trip")
struct ParseWireRoundTripTests {
    static let created = Date(timeIntervalSince1970: 1_763_719_200.125)  // whole milliseconds, exact in binary

    /// The value read back from its JSON, and from that JSON as text.
    private func roundTrip<T: ParseCodable & Equatable>(_ value: T) throws {
        #expect(try T(json: value.json) == value)
        let text = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(T.self, from: text) == value)
    }

    @Test("GeoPoint, the poles and the antimeridian included")
    func geoPoint() throws {
        try roundTrip(ParseGeoPoint(try GeoPoint(latitude: 37.7793, longitude: -122.4193)))
        try roundTrip(try ParseGeoPoint(latitude: 90, longitude: -180))
        #expect(ParseGeoPoint(try GeoPoint(latitude: 1.5, longitude: 2.25)).json
                == .object(["__type": .string("GeoPoint"), "latitude": .number(1.5), "longitude": .number(2.25)]))
    }

    @Test("Pointer")
    func pointer() throws {
        try roundTrip(ParsePointer.user("xWMyZ4YEGZ"))
        #expect(ParsePointer.user("u1").json
                == .object(["__type": .string("Pointer"), "className": .string("_User"), "objectId": .string("u1")]))
    }

    @Test("Date, to the millisecond")
    func date() throws {
        try roundTrip(ParseDateValue(Self.created))
        #expect(ParseDateValue(Self.created).json == .object(["__type": .string("Date"), "iso": .string("2025-11-21T10:00:00.125Z")]))
    }

    @Test("ACL: public read, an owner's write, and a private one")
    func acl() throws {
        try roundTrip(ParseACL.publicRead(writer: "u1"))
        try roundTrip(ParseACL.publicRead(writer: nil))
        try roundTrip(ParseACL(["u2": .read, "u3": []]))
        #expect(ParseACL.publicRead(writer: "u1").json
                == .object(["*": .object(["read": .bool(true)]), "u1": .object(["read": .bool(true), "write": .bool(true)])]))
    }

    @Test("errors: with a code, code 1 with `message`, and a refused key's bare `error`")
    func error() throws {
        try roundTrip(ParseError(ParseErrorCode.invalidQuery, "Invalid parameter for query: radius"))
        try roundTrip(ParseError(ParseErrorCode.internalServerError, "Internal server error."))
        try roundTrip(ParseError(nil, "unauthorized"))
        #expect(ParseError(1, "boom").json == .object(["code": .number(1), "message": .string("boom")]))
        #expect(ParseError(101, "Object not found.").json == .object(["code": .number(101), "error": .string("Object not found.")]))
    }

    @Test("users: the whole record, and the bare Pointer form")
    func user() throws {
        let alice = ParseUserObject(objectId: "u1", username: "alice", name: "Alice Liddell", sessionToken: "r:abc",
                                    createdAt: Self.created, updatedAt: Self.created, acl: .publicRead(writer: "u1"))
        try roundTrip(alice)
        try roundTrip(ParseUserObject(objectId: "u2"))
    }

    @Test("posts: with the author as a Pointer, included, absent; with keys left out")
    func post() throws {
        let location = ParseGeoPoint(try GeoPoint(latitude: -33.87, longitude: 151.21))
        let alice = ParseUserObject(objectId: "u1", username: "alice", createdAt: Self.created, updatedAt: Self.created)
        for author in [ParsePostObject.Author.pointer("u1"), .included(alice), nil] {
            var post = ParsePostObject(objectId: "p1", createdAt: Self.created)
            post.text = "Free coffee"
            post.location = location
            post.author = author
            post.updatedAt = Self.created
            post.acl = .publicRead(writer: "u1")
            try roundTrip(post)
        }
        try roundTrip(ParsePostObject(objectId: "p2", createdAt: Self.created))
        var withUser = ParsePostObject(objectId: "p1", createdAt: Self.created)
        withUser.author = .included(alice)
        let included = withUser.json
        #expect(included.fields?["user"]?.fields?["__type"] == .string("Object"))
        #expect(included.fields?["user"]?.fields?["className"] == .string("_User"))
    }

    @Test("where-clauses: near, near in a box, in a polygon, in a circle")
    func whereClause() throws {
        let center = try GeoPoint(latitude: 51.5072, longitude: -0.1276)
        let near = WhereClause.Near(center: center, maxDistance: .meters(100_000))
        let box = BoundingBox(minLatitude: 51.4, maxLatitude: 51.6, minLongitude: -0.3, maxLongitude: 0.1)
        let polygon = try Area(polygon: [AreaVertex(latitude: 51, longitude: -1), AreaVertex(latitude: 52, longitude: -1),
                                         AreaVertex(latitude: 52, longitude: 1)])
        let clauses = [
            WhereClause(near: near),
            WhereClause(near: near, areas: [.box(box)]),
            WhereClause(near: near, areas: [.polygon(polygon)]),
            WhereClause(areas: [.circle(center: center, radius: .meters(2_000))]),
        ]
        for clause in clauses {
            let back = try WhereClause(json: clause.json)
            #expect(back.condition == .always)
            #expect(back.areas.count == clause.areas.count)
            #expect(back.near?.center == clause.near?.center)
            // Kilometres on the wire, metres in the type: equal to well under a millimetre.
            if let sent = clause.near?.maxDistance, let read = back.near?.maxDistance {
                #expect(abs(sent.meters - read.meters) < 1e-6)
            }
            for (sent, read) in zip(clause.areas, back.areas) {
                switch (sent, read) {
                case (.box(let a), .box(let b)): #expect(a == b)
                case (.polygon(let a), .polygon(let b)): #expect(a == b)
                case (.circle(let a, let r), .circle(let b, let s)):
                    #expect(a == b)
                    #expect(abs(r.meters - s.meters) < 1e-6)
                default: Issue.record("\(sent) came back as \(read)")
                }
            }
        }
    }
}
