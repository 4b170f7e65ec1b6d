import EmbeddedStore
import Foundation
import ParseClient
import ParseWire
import Testing
import TestSupport
import WallDomain

/// Posts at the same distance come in the same order from every wall: the embedded wall's
/// (`NearestFirst`: distance, then objectId), which ParseWall keeps whatever order a Parse Server
/// sends them in.
@Suite("nearest first, ties by objectId, on the embedded wall and through ParseWall")
struct NearestFirstParityTests {
    private let spot = try! GeoPoint(latitude: 37.7793, longitude: -122.4193)

    @Test("the embedded wall lists posts at the same place by objectId")
    func embeddedTies() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-ties-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let wall = try EmbeddedWall(file: file)
        let alice = try wall.signUp(username: "alice", password: "pw", name: nil)
        var made: [String] = []
        for index in 0..<6 {
            made.append(try wall.createPost(text: "same place \(index)", at: spot, session: alice, requestId: "r\(index)").objectId)
        }
        let near = try wall.createPost(text: "nearer", at: try spot.moved(.meters(5), bearing: 180), session: alice, requestId: "near")
        let center = try spot.moved(.meters(10), bearing: 180)
        #expect(try wall.nearby(WallQuery(center: center)).map(\.objectId) == [near.objectId] + made.sorted())
    }

    @Test("ParseWall orders a server's posts at the same distance by objectId, as the embedded wall does")
    func parseWallTies() throws {
        let ids = ["Zq0000000a", "Mq0000000b", "Aq0000000c"]
        let nearer = try spot.moved(.meters(5), bearing: 180)
        func record(_ id: String, _ place: GeoPoint) -> [String: Any] {
            ["objectId": id, "text": "post \(id)", "createdAt": "2026-11-21T10:00:00.000Z", "updatedAt": "2026-11-21T10:00:00.000Z",
             "location": ["__type": "GeoPoint", "latitude": place.latitude, "longitude": place.longitude]]
        }
        // The server's order: the three at the same place last objectId first, the nearer one last.
        let fixture: [String: Any] = [
            "about": "posts at the same distance in an order of the server's own", "source": "NearestFirstParityTests",
            "request": ["method": "GET", "path": "/parse/classes/Posts", "query": "<any>"],
            "response": ["status": 200, "headers": ["Content-Type": "application/json; charset=utf-8"],
                         "body": ["results": ids.map { record($0, spot) } + [record("Nq0000000d", nearer)]]],
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-ties-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try JSONSerialization.data(withJSONObject: fixture).write(to: folder.appendingPathComponent("ties.json"))
        let server = try TestHTTPServer(script: "parse_fixture_server.py", arguments: ["--fixtures", folder.path, "--script", "ties", "--port", "0"])
        let wall = try ParseWall(server: ParseServer(url: server.parseURL, applicationId: Sandbox.applicationId, restKey: Sandbox.restKey))
        let center = try spot.moved(.meters(10), bearing: 180)
        #expect(try wall.nearby(WallQuery(center: center)).map(\.objectId) == ["Nq0000000d"] + ids.sorted())
        let report = try server.report()
        #expect(report.served == ["ties"], "\(report)")
    }
}
