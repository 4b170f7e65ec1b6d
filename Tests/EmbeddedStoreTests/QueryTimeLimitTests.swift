import AnywallSupport
import EmbeddedStore
import Foundation
import TestSupport
import Testing
import WallDomain

/// A wall opened for the server's queries stops a find that runs past its time limit, and its
/// connection answers the next find as before.
@Suite("A find's time limit")
struct QueryTimeLimitTests {
    @Test("a find past the limit is stopped with QueryTimeLimit.Exceeded; the next find on the same connection is answered")
    func stopsAtLimit() throws {
        let file = Self.wallFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let hasher = PasswordHasher(rounds: 1 << 10, blockSize: 8, parallelism: 1)
        try CostlyPosts.load(3_000, into: EmbeddedWall(file: file, hasher: hasher))

        let limit = QueryTimeLimit(.milliseconds(200))
        let reader = try EmbeddedWall(file: file, hasher: hasher, memoryMapped: true, queryTimeLimit: limit)
        let costly = RecordCondition.matches(.text, try TextPattern(CostlyPosts.pattern))
        #expect(throws: QueryTimeLimit.Exceeded(limit)) { try reader.countPosts(where: costly) }
        #expect(throws: QueryTimeLimit.Exceeded(limit)) { try reader.storedPosts(where: costly, order: [], skip: 0, limit: 10) }
        #expect(throws: QueryTimeLimit.Exceeded(limit)) { try reader.forEachStoredPost(inAny: nil, where: costly) { _ in } }
        #expect(try reader.countPosts(where: .matches(.text, try TextPattern("post 1$"))) == 1)
        #expect(try reader.countPosts(where: .always) == 3_000)
    }

    @Test("a wall without a limit (a command's own) reads to the end")
    func noLimit() throws {
        let file = Self.wallFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let wall = try CostlyPosts.load(30, into: EmbeddedWall(file: file))
        #expect(try wall.countPosts(where: .matches(.text, try TextPattern(CostlyPosts.pattern))) == 0)
        #expect(try wall.countPosts(where: .matches(.text, try TextPattern("^a+! post"))) == 30)
    }

    private static func wallFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("anywall-test-\(UUID().uuidString)").appendingPathComponent("wall.sqlite")
    }
}
