import AnywallSupport
import EmbeddedStore
import Foundation

/// What a server fuzz target serves its inputs from: a wall and what it set up on it, made anew
/// every `inputsPerWall` inputs, so that what inputs leave behind (posts, config, deleted rows)
/// does not pile up and slow or steer every later input. Each wall has a file of its own (SQLite
/// removes a WAL file by its name), in memory where /dev/shm is; passwords are hashed at scrypt's
/// lowest cost, so that sign-up and log-in are fuzzed too.
struct FuzzWalls<Served> {
    static var inputsPerWall: Int { 1000 }

    private let name: String
    private let setUp: (EmbeddedWall) throws -> Served
    private var file: URL
    private var generation = 0
    private var inputs = 0
    /// The wall's set-up for the input at hand.
    var current: Served

    init(_ name: String, setUp: @escaping (EmbeddedWall) throws -> Served) {
        self.name = name
        self.setUp = setUp
        (file, current) = Self.make(name, generation: 0, setUp)
    }

    /// Counts an input, first replacing a worn wall.
    mutating func beginInput() {
        if inputs >= Self.inputsPerWall {
            let worn = file
            generation += 1
            (file, current) = Self.make(name, generation: generation, setUp)
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: worn.path + suffix) }
            inputs = 0
        }
        inputs += 1
    }

    private static func make(_ name: String, generation: Int, _ setUp: (EmbeddedWall) throws -> Served) -> (URL, Served) {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let file = URL(fileURLWithPath: folder).appendingPathComponent("anywall-fuzz-\(name)-\(getpid())-\(generation).sqlite")
        do {
            return (file, try setUp(try EmbeddedWall(file: file, hasher: PasswordHasher(rounds: 2, blockSize: 1, parallelism: 1))))
        } catch {
            fatalError("the fuzz target's wall cannot be made: \(error)")
        }
    }
}
