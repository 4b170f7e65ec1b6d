import Foundation
import TestSupport
import Testing
import WallDomain

/// anywall-server's finds on Posts over HTTP: every geo operator the issue names, and the page,
/// order and field parameters, on a small wall whose answers are known.
@Suite("anywall-server: queries")
struct ServerQueryTests {
    /// Posts at known places around (10, 20), left in this order.
    static let places: [(text: String, latitude: Double, longitude: Double)] = [
        ("center", 10, 20), ("north 1 km", 10.009, 20), ("east 5 km", 10, 20.0457), ("edge", 10.5, 20.5),
        ("far", 12, 22), ("antipode side", -10, -160),
    ]

    private static func wall() throws -> (WallServer, String) {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-q-\(UUID().uuidString).sqlite"))
        let alice = try server.signUp("alice")
        for place in places {
            let answer = try server.post(place.text, latitude: place.latitude, longitude: place.longitude, token: alice.token)
            precondition(answer.status == 201, "\(answer)")
        }
        return (server, alice.objectId)
    }

    private static func point(_ latitude: Double, _ longitude: Double) -> [String: Any] {
        ["__type": "GeoPoint", "latitude": latitude, "longitude": longitude]
    }

    private static func texts(_ server: WallServer, where location: [String: Any], _ extra: [String: String] = [:]) throws -> [String] {
        let whereJSON = String(decoding: try JSONSerialization.data(withJSONObject: ["location": location]), as: UTF8.self)
        let answer = try server.send("GET", "/classes/Posts", query: extra.merging(["where": whereJSON]) { $1 })
        guard answer.status == 200, let results = answer.json["results"] as? [[String: Any]] else { return ["HTTP \(answer)"] }
        return results.map { $0["text"] as! String }
    }

    @Test("$nearSphere: nearest first, within $maxDistanceInKilometers, Miles or Radians, with skip and limit")
    func nearSphere() throws {
        let (server, _) = try Self.wall()
        let near = Self.point(10, 20)
        #expect(try Self.texts(server, where: ["$nearSphere": near, "$maxDistanceInKilometers": 10]) == ["center", "north 1 km", "east 5 km"])
        #expect(try Self.texts(server, where: ["$nearSphere": near, "$maxDistanceInMiles": 2]) == ["center", "north 1 km"])
        #expect(try Self.texts(server, where: ["$nearSphere": near, "$maxDistanceInRadians": 0.0001]) == ["center"])
        #expect(try Self.texts(server, where: ["$nearSphere": near], ["skip": "1", "limit": "3"]) == ["north 1 km", "east 5 km", "edge"])
        #expect(try Self.texts(server, where: ["$nearSphere": near]).last == "antipode side", "no distance: the whole wall")
    }

    @Test("$within/$box (corners in either order, no antimeridian wrap), $geoWithin/$polygon with its edge, $centerSphere")
    func areas() throws {
        let (server, _) = try Self.wall()
        let box = ["$box": [Self.point(9.9, 19.9), Self.point(10.5, 20.5)]]
        #expect(try Self.texts(server, where: ["$within": box]) == ["center", "north 1 km", "east 5 km", "edge"])
        let swapped = ["$box": [Self.point(10.5, 20.5), Self.point(9.9, 19.9)]]
        #expect(try Self.texts(server, where: ["$within": swapped]).count == 4)
        let wrapping = ["$box": [Self.point(-20, 170), Self.point(20, -170)]]
        #expect(try Self.texts(server, where: ["$within": wrapping]).count == Self.places.count,
                "read as longitudes -170..170 (the whole wall here), as MongoDB does, not as the 20° across 180°")
        // A triangle whose edge (latitude = longitude - 10) runs through "center" and "edge";
        // "east 5 km" lies just outside it. The corners are exact in binary, so "on the edge" is exact.
        let triangle = ["$polygon": [[19.5, 9.5], [21, 11], [19.5, 11]]]
        let inTriangle = try Self.texts(server, where: ["$geoWithin": triangle])
        #expect(inTriangle == ["center", "north 1 km", "edge"], "\(inTriangle)")
        let asGeoPoints = ["$polygon": [Self.point(9.5, 19.5), Self.point(11, 21), Self.point(11, 19.5)]]
        #expect(try Self.texts(server, where: ["$geoWithin": asGeoPoints]) == inTriangle)
        let bowtie = ["$polygon": [[19, 9], [21, 11], [21, 9], [19, 11]]]
        let refused = try Self.texts(server, where: ["$geoWithin": bowtie])
        #expect(refused.first?.contains("107") == true && refused.first?.contains("Self-intersection") == true, "\(refused)")
        let circle = ["$centerSphere": [[20, 10], 2.0 / 6371]]
        #expect(try Self.texts(server, where: ["$geoWithin": circle]) == ["center", "north 1 km"])
        let both: [String: Any] = ["$nearSphere": Self.point(10.5, 20.5), "$within": box]
        #expect(try Self.texts(server, where: both) == ["edge", "east 5 km", "north 1 km", "center"], "in the box, nearest first")
        #expect(try Self.texts(server, where: both, ["skip": "1", "limit": "2"]) == ["east 5 km", "north 1 km"])
        #expect(try Self.texts(server, where: ["$within": box], ["skip": "1", "limit": "2"]) == ["north 1 km", "east 5 km"], "in the order they were left")
        #expect(try Self.texts(server, where: ["$within": box], ["skip": "4"]) == [])
    }

    @Test("order, skip, limit, count, keys, excludeKeys, objectId and include=user")
    func pagesAndFields() throws {
        let (server, aliceId) = try Self.wall()
        let newest = try server.send("GET", "/classes/Posts", query: ["order": "-createdAt", "limit": "2", "count": "1"])
        #expect((newest.json["results"] as! [[String: Any]]).map { $0["text"] as! String } == ["antipode side", "far"])
        #expect(newest.json["count"] as? Int == 6)
        let byText = try server.send("GET", "/classes/Posts", query: ["order": "text", "skip": "4"])
        #expect((byText.json["results"] as! [[String: Any]]).map { $0["text"] as! String } == ["far", "north 1 km"])
        let counted = try server.send("GET", "/classes/Posts", query: ["count": "1", "limit": "0",
            "where": #"{"location":{"$within":{"$box":[{"__type":"GeoPoint","latitude":9,"longitude":19},{"__type":"GeoPoint","latitude":11,"longitude":21}]}}}"#])
        #expect(counted.json["count"] as? Int == 4 && (counted.json["results"] as? [Any])?.isEmpty == true, "\(counted)")
        let keys = try server.send("GET", "/classes/Posts", query: ["keys": "text", "limit": "1"])
        // The posts were saved without an ACL: they have none to return, as on Parse Server.
        #expect(Set((keys.json["results"] as! [[String: Any]])[0].keys) == ["objectId", "text", "createdAt", "updatedAt"])
        let excluded = try server.send("GET", "/classes/Posts", query: ["excludeKeys": "text,ACL", "limit": "1"])
        #expect(Set((excluded.json["results"] as! [[String: Any]])[0].keys) == ["objectId", "location", "user", "createdAt", "updatedAt"])
        let first = (keys.json["results"] as! [[String: Any]])[0]["objectId"] as! String
        let byId = try server.send("GET", "/classes/Posts", query: ["where": #"{"objectId":{"$in":["\#(first)","nope"]}}"#])
        #expect((byId.json["results"] as! [[String: Any]]).map { $0["text"] as! String } == ["center"])
        let pointer = (byId.json["results"] as! [[String: Any]])[0]["user"] as! [String: Any]
        #expect(pointer as NSDictionary == ["__type": "Pointer", "className": "_User", "objectId": aliceId] as NSDictionary)
        let included = try server.send("GET", "/classes/Posts/\(first)", query: ["include": "user"]).json["user"] as! [String: Any]
        #expect(included["username"] as? String == "alice" && included["__type"] as? String == "Object", "\(included)")
    }
}
