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
        // from there, never through the mapping.
        _ = try DatabaseQueue(path: file.path).writeWithoutTransaction { try $0.checkpoint(.truncate) }

        let command = try EmbeddedWall(file: file, hasher: hasher)
        #expect(try command.postCount() == 1)
        #expect(!Self.mapped(file))

        let server = try EmbeddedWall(file: file, hasher: hasher, memoryMapped: true)
        #expect(try server.postCount() == 1)
        #expect(Self.mapped(file))
        // A post written through another connection is seen through the mapping.
        _ = try command.createPost(text: "there", at: try GeoPoint(latitude: 1, longitude: 2), session: session, requestId: "r2")
        #expect(try server.postCount() == 2)
    }

    /// Whether this process maps `file` (the wall itself, not its -shm index, which SQLite always maps).
    private static func mapped(_ file: URL) -> Bool {
        mapsLines().contains { $0.hasSuffix(" " + file.path) }
    }

    /// The lines of /proc/self/maps, read to its end. Foundation's readers returned only its first
    /// 4,029 bytes (66 lines) here: a mapping listed after them went unseen, as it did in CI once
    /// while many tests ran.
    private static func mapsLines() -> [Substring] {
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }
}
