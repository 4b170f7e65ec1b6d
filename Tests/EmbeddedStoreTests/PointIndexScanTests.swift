import AnywallSupport
@testable import EmbeddedStore
import Foundation
import GRDB
import TestSupport
import Testing
import WallDomain

/// The nearest search walks the location index's nodes itself (`PointIndexScan`): it must find
/// exactly what SQLite's rtree module finds, in trees the module grew and in trees a bulk load
/// packed, and a damaged index must fail the query, never the process.
@Suite("Walking the location index")
struct PointIndexScanTests {
    /// A wall of `count` posts: clusters of every size and a few anywhere, either inserted one by one
    /// (the module grows and splits its nodes) or loaded in bulk (packed along a Hilbert curve).
    private func wall(_ count: Int, bulk: Bool, seed: UInt64) throws -> EmbeddedWall {
        var rng = SeededGenerator(seed: seed)
        let centres = try (0..<5).map { _ in try GeoPoint(latitude: Double.random(in: -70...70, using: &rng), longitude: Double.random(in: -179...179, using: &rng)) }
        let lines = try (0..<count).map { i in
            let place = i % 10 == 0
                ? try GeoPoint(latitude: Double.random(in: -89...89, using: &rng), longitude: Double.random(in: -180...180, using: &rng))
                : try centres[i % 5].moved(.kilometers(Double.random(in: 0...[0.1, 3, 80][i % 3], using: &rng)), bearing: Double.random(in: 0..<360, using: &rng))
            return #"{"objectId":"p\#(i)","text":"post \#(i)","location":{"latitude":\#(place.latitude),"longitude":\#(place.longitude)},"author":"a\#(i % 7)"}"#
        }
        let wall = try temporaryWall()
        if bulk {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-scan-\(UUID().uuidString).ndjson")
            try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            _ = try PostImport(reader: PostImportReader(lines: try LineReader(path: file.path)), wall: wall, batchSize: count).run { _ in }
        } else {
            _ = try wall.importPosts(try lines.map { try JSONDecoder().decode(ImportedPost.self, from: Data($0.utf8)) })
        }
        return wall
    }

    @Test("finds in any box exactly the points, and the corners, the rtree module finds", arguments: [false, true])
    func matchesModule(bulk: Bool) throws {
        let wall = try wall(5_000, bulk: bulk, seed: bulk ? 41 : 42)
        var rng = SeededGenerator(seed: 43)
        var boxes = [BoundingBox(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180),
                     BoundingBox(minLatitude: 10, maxLatitude: 10, minLongitude: 20, maxLongitude: 20)]
        for _ in 0..<300 {
            let latitude = Double.random(in: -90...90, using: &rng), longitude = Double.random(in: -180...180, using: &rng)
            let size = [0.001, 0.05, 1, 30].randomElement(using: &rng)!
            boxes.append(BoundingBox(minLatitude: latitude, maxLatitude: min(90, latitude + size),
                                     minLongitude: longitude, maxLongitude: min(180, longitude + size)))
        }
        let db = try DatabaseQueue(path: wall.file.path)
        try db.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM postLocation_node")! > 52, "the tree has inner nodes")
            // Each box twice: its nodes read from the wall, then kept.
            let kept = IndexNodeCache()
            kept.refresh(db)
            let scan = try PointIndexScan(db, table: "postLocation", kept: kept)
            var found = 0
            for box in boxes + boxes {
                var walked: [[Double]] = []
                try scan.forEachPoint(in: box) { id, latitude, longitude in walked.append([Double(id), latitude, longitude]) }
                let module = try Row.fetchAll(db, sql: """
                    SELECT id, minLatitude, minLongitude FROM postLocation
                    WHERE maxLatitude >= ? AND minLatitude <= ? AND maxLongitude >= ? AND minLongitude <= ?
                    """, arguments: [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude])
                    .map { row in (0..<3).map { row[$0] as Double } }
                #expect(walked.sorted { $0[0] < $1[0] } == module.sorted { $0[0] < $1[0] }, "in \(box)")
                found += walked.count
            }
            #expect(found > 10_000, "the boxes found points")
        }
    }

    @Test("an index whose inner nodes lead back to one another fails the query, whether its nodes are read or kept")
    func cycle() throws {
        let wall = try wall(1_000, bulk: true, seed: 45)
        // Root, then 20 leaves numbered from 2. Made three levels deep with the root's first cell
        // alone (node 2), every cell of node 2 leading to node 3 and every cell of node 3 to the
        // leaf 4: node 3 is reached 51 times, each time reading node 4 51 times.
        try DatabaseQueue(path: wall.file.path).write { db in
            func node(_ number: Int) throws -> Data { try Data.fetchOne(db, sql: "SELECT data FROM postLocation_node WHERE nodeno = ?", arguments: [number])! }
            func write(_ number: Int, _ data: Data) throws {
                try db.execute(sql: "UPDATE postLocation_node SET data = ? WHERE nodeno = ?", arguments: [data, number])
            }
            func leadingTo(_ child: UInt8, _ data: Data) -> Data {
                var data = data
                for cell in 0..<(Int(data[2]) << 8 | Int(data[3])) { data.replaceSubrange(4 + cell * 24 ..< 12 + cell * 24, with: [0, 0, 0, 0, 0, 0, 0, child]) }
                return data
            }
            var root = try node(1)
            #expect(root[11] == 2, "the root's first cell is node 2")
            root.replaceSubrange(0..<4, with: [0, 3, 0, 1])
            try write(1, root)
            try write(2, leadingTo(3, try node(2)))
            try write(3, leadingTo(4, try node(3)))
        }
        let reopened = try EmbeddedWall(file: wall.file)
        let query = try WallQuery(center: GeoPoint(latitude: 0, longitude: 0), searchDistance: .kilometers(20_000), limit: 1_000)
        // Twice: the second walk reads the nodes the first kept.
        for _ in 0..<2 {
            #expect {
                _ = try reopened.nearby(query)
            } throws: { error in
                guard case .backendUnreachable(let reason)? = error as? AnywallError else { return false }
                return reason.contains("the location index is damaged: node 3 is reached twice")
            }
        }
    }

    @Test("a damaged index fails the query with a one-line reason, and the wall still opens",
          arguments: [
              "root cell count past its end": "UPDATE postLocation_node SET data = X'0001FFFF' || substr(data, 5) WHERE nodeno = 1",
              "more cells than a node holds": "UPDATE postLocation_node SET data = X'00010034' || substr(data, 5) || zeroblob(100) WHERE nodeno = 1",
              "a depth past any real tree": "UPDATE postLocation_node SET data = X'0400' || substr(data, 3) WHERE nodeno = 1",
              "a child that is not a node": "DELETE FROM postLocation_node WHERE nodeno = (SELECT max(nodeno) FROM postLocation_node)",
              "an empty root": "UPDATE postLocation_node SET data = X'00' WHERE nodeno = 1",
              "no root": "DELETE FROM postLocation_node WHERE nodeno = 1",
              "a leaf cut short": "UPDATE postLocation_node SET data = substr(data, 1, 40) WHERE nodeno = (SELECT max(nodeno) FROM postLocation_node)",
          ])
    func damaged(what: String, damage: String) throws {
        let wall = try wall(1_000, bulk: true, seed: 44)
        try DatabaseQueue(path: wall.file.path).write { try $0.execute(sql: damage) }
        let reopened = try EmbeddedWall(file: wall.file)
        // Every post is among the answer, so every leaf is read.
        let query = try WallQuery(center: GeoPoint(latitude: 0, longitude: 0), searchDistance: .kilometers(20_000), limit: 1_000)
        do {
            _ = try reopened.nearby(query)
            Issue.record("\(what): the query answered")
        } catch let error as AnywallError {
            guard case .backendUnreachable(let reason) = error else {
                Issue.record("\(what): \(error)")
                return
            }
            #expect(reason.contains("the location index is damaged"), "\(what): \(reason)")
            #expect(!reason.contains("\n"))
        }
    }
}
