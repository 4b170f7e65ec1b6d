import AnywallSupport
import EmbeddedStore
import Foundation
import GRDB
import Testing
import WallDomain

/// A long-lived process (the server) reads the wall through a memory mapping of its file; a
/// one-shot command reads it with system calls, as mapping would cost it more than it saves.
@Suite("Memory-mapped wall")
struct MemoryMapTests {
    @Test("a wall opened memory-mapped reads its file through a mapping; one opened as a command does not")
    func mapping() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("wall.sqlite")

        let hasher = PasswordHasher(rounds: 1 << 10, blockSize: 8, parallelism: 1)
        let writer = try EmbeddedWall(file: file, hasher: hasher)
        let session = try writer.signUp(username: "alice", password: "pw", name: nil)
        _ = try writer.createPost(text: "here", at: try GeoPoint(latitude: 1, longitude: 2), session: session, requestId: "r1")
        // The reads below must find their pages in the file itself: a page still in the WAL is read
        // from there, never through the mapping. A last connection's close moves them only when
        // nothing else has the file open; a CI run once found no mapping after relying on it, so
        // the test moves them itself, and says what the WAL held if the mapping is missing again.
        _ = try DatabaseQueue(path: file.path).writeWithoutTransaction { try $0.checkpoint(.truncate) }

        let command = try EmbeddedWall(file: file, hasher: hasher)
        #expect(try command.postCount() == 1)
        #expect(!Self.mapped(file))

        let server = try EmbeddedWall(file: file, hasher: hasher, memoryMapped: true)
        #expect(try server.postCount() == 1)
        #expect(Self.mapped(file), "no mapping of the wall; the WAL holds \(Self.size(of: file.path + "-wal")) bytes")
        // A post written through another connection is seen through the mapping.
        _ = try command.createPost(text: "there", at: try GeoPoint(latitude: 1, longitude: 2), session: session, requestId: "r2")
        #expect(try server.postCount() == 2)
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Whether this process maps `file` (the wall itself, not its -shm index, which SQLite always maps).
    private static func mapped(_ file: URL) -> Bool {
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        return maps.split(separator: "\n").contains { $0.hasSuffix(" " + file.path) }
    }
}
