import AnywallSupport
import EmbeddedStore
import Foundation
import GRDB
import TestSupport
import Testing
import WallDomain

/// An import at least as large as the wall is loaded in one transaction and its location index
/// built at the end (`PointIndexBuild`); a smaller one goes post by post. Either way the wall
/// must answer as if every post had been inserted one by one.
@Suite("Loading a wall in bulk")
struct WallLoadTests {
    /// NDJSON of `count` posts around a few cities, and a few anywhere, from `seed`.
    private func ndjson(_ count: Int, seed: UInt64, prefix: String) throws -> URL {
        var rng = SeededGenerator(seed: seed)
        let centres = [(35.6762, 139.6503), (-33.8688, 151.2093), (51.5074, -0.1278), (64.1466, -21.9426), (-18.1416, 179.5)]
        var lines: [String] = []
        for i in 0..<count {
            var latitude = Double.random(in: -80...80, using: &rng), longitude = Double.random(in: -179.999...179.999, using: &rng)
            if i % 10 != 0 {
                let (lat, lon) = centres[i % centres.count]
                latitude = lat + Double.random(in: -0.3...0.3, using: &rng)
                longitude = min(179.999, lon + Double.random(in: -0.3...0.3, using: &rng))
            }
            lines.append(#"{"objectId":"\#(prefix)\#(i)","text":"post \#(i)","location":{"latitude":\#(latitude),"longitude":\#(longitude)},"author":"a\#(i % 40)"}"#)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-load-\(UUID().uuidString).ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private func imported(_ file: URL, into wall: EmbeddedWall, batchSize: Int = 1_000,
                          pointsInMemory: Int = EmbeddedWall.loadPointsInMemory) throws -> ImportOutcome {
        try PostImport(reader: PostImportReader(lines: try LineReader(path: file.path)), wall: wall, batchSize: batchSize,
                       pointsInMemory: pointsInMemory).run { _ in }
    }

    /// A wall that took `files` post by post (each into the index by its trigger), as a wall takes
    /// an input smaller than itself: batch by batch through `importPosts`, after one first post.
    private func insertedOneByOne(_ files: [URL]) throws -> EmbeddedWall {
        let wall = try temporaryWall()
        _ = try imported(try ndjson(1, seed: 12, prefix: "first"), into: wall)
        var authors: [ImportedPost.Author: Int64] = [:]
        for file in files {
            let reader = PostImportReader(lines: try LineReader(path: file.path))
            while case let batch = try reader.nextBatch(size: 1_000), !batch.isEmpty {
                _ = try wall.importPosts(batch.posts, authors: &authors)
            }
        }
        return wall
    }

    /// The location index as stored, and SQLite's own check of its structure.
    private func index(of wall: EmbeddedWall) throws -> (cells: [[Double]], check: String) {
        let db = try DatabaseQueue(path: wall.file.path)
        return try db.read { db in
            let cells = try Row.fetchAll(db, sql: "SELECT id, minLatitude, maxLatitude, minLongitude, maxLongitude FROM postLocation ORDER BY id")
                .map { row in (0..<5).map { row[$0] as Double } }
            return (cells, try String.fetchOne(db, sql: "SELECT rtreecheck('postLocation')")!)
        }
    }

    /// The default keeps the load's points in memory for the build; 100 is fewer than it adds, so
    /// the build reads them back from the wall, through SQLite's sorter.
    @Test("an empty wall loaded in bulk holds the index and answers that inserting post by post gives",
          arguments: [EmbeddedWall.loadPointsInMemory, 100])
    func bulkMatchesOneByOne(pointsInMemory: Int) throws {
        let file = try ndjson(6_000, seed: 11, prefix: "p")
        let bulk = try temporaryWall()
        let outcome = try imported(file, into: bulk, pointsInMemory: pointsInMemory)
        #expect(outcome.imported == 6_000 && outcome.usersCreated == 40)
        try expectSameIndex(bulk, try insertedOneByOne([file]))
    }

    @Test("a wall that has posts, loaded in bulk with a larger input, indexes its old posts and the new ones")
    func bulkIntoWallWithPosts() throws {
        let first = try ndjson(300, seed: 14, prefix: "old"), second = try ndjson(6_000, seed: 15, prefix: "new")
        let wall = try temporaryWall()
        _ = try imported(first, into: wall)
        #expect(try imported(second, into: wall).imported == 6_000)
        try expectSameIndex(wall, try insertedOneByOne([first, second]))
    }

    /// `bulk`'s index holds the very boxes `oneByOne`'s does (whose ids are one more: its first
    /// post), passes SQLite's check, and answers nearest searches alike.
    private func expectSameIndex(_ bulk: EmbeddedWall, _ oneByOne: EmbeddedWall) throws {
        let built = try index(of: bulk), inserted = try index(of: oneByOne)
        #expect(built.check == "ok")
        #expect(inserted.check == "ok")
        #expect(built.cells == inserted.cells.dropFirst().map { [$0[0] - 1] + $0[1...] })
        var rng = SeededGenerator(seed: 13)
        for _ in 0..<40 {
            let centre = try GeoPoint(latitude: Double.random(in: -60...65, using: &rng), longitude: Double.random(in: -180...180, using: &rng))
            let query = try WallQuery(center: centre)
            #expect(try bulk.nearby(query).map(\.objectId) == oneByOne.nearby(query).map(\.objectId).filter { $0 != "first0" })
        }
    }

    @Test("after a bulk load, new posts go into the index again, one by one")
    func indexKeptAfterLoad() throws {
        let wall = try temporaryWall()
        _ = try imported(try ndjson(500, seed: 21, prefix: "p"), into: wall)
        let session = try wall.signUp(username: "alice", password: "pw", name: nil)
        let place = try GeoPoint(latitude: -45.0, longitude: 170.0)
        let created = try wall.createPost(text: "after the load", at: place, session: session, requestId: "r1")
        #expect(try wall.nearby(try WallQuery(center: place)).first?.objectId == created.objectId)
        #expect(try index(of: wall).check == "ok")
    }

    @Test("a wall of one post, and an empty input, make valid trees")
    func smallest() throws {
        let one = try temporaryWall()
        #expect(try imported(try ndjson(1, seed: 31, prefix: "p"), into: one).imported == 1)
        #expect(try index(of: one).check == "ok")
        let none = try temporaryWall()
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-empty-\(UUID().uuidString).ndjson")
        try Data().write(to: empty)
        #expect(try imported(empty, into: none).imported == 0)
        #expect(try index(of: none).check == "ok")
    }

    @Test("bad records are reported in input order by line, whichever part of a batch decoded them")
    func rejectedInOrder() throws {
        var lines = (0..<3_000).map { #"{"objectId":"p\#($0)","text":"post \#($0)","location":{"latitude":1,"longitude":2}}"# }
        for bad in [5, 1_499, 1_500, 2_999] { lines[bad] = #"{"text":"no place"}"# }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-bad-\(UUID().uuidString).ndjson")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        var rejected: [String] = []
        let outcome = try PostImport(reader: PostImportReader(lines: try LineReader(path: file.path)), wall: try temporaryWall(), batchSize: 3_000)
            .run { rejected += $0.rejected.map(\.position) }
        #expect(rejected == ["line 6", "line 1500", "line 1501", "line 3000"])
        #expect(outcome.imported == 2_996)
    }
}
