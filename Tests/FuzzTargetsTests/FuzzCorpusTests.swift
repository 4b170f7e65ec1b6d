import Foundation
import FuzzTargets
import Testing

/// Every input in each fuzz target's corpus (the seeds in fixtures/fuzz, and any crash a fuzzer
/// found, kept there as a regression) runs through the target without a trap.
@Suite("Fuzz corpora replayed")
struct FuzzCorpusTests {
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/fuzz")

    @Test("each target takes its whole corpus", arguments: FuzzTarget.allCases)
    func replay(_ target: FuzzTarget) async throws {
        let directory = Self.corpora.appendingPathComponent(target.rawValue)
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        #expect(files.count >= 5, "fixtures/fuzz/\(target.rawValue) needs seeds")
        let inputs = try files.map { Array(try Data(contentsOf: $0)) }
        await Self.onDispatchThread { for input in inputs { target.run(input) } }
    }

    @Test("hostile shapes: empty, binary, huge numbers, deep nesting", arguments: FuzzTarget.allCases)
    func hostile(_ target: FuzzTarget) async {
        let inputs: [[UInt8]] = [
            [], [0], Array(repeating: 0xFF, count: 300), Array("$GPGGA,".utf8) + Array(repeating: 0x39, count: 400),
            Array(String(repeating: "[", count: 5000).utf8), Array(String(repeating: "{\"a\":", count: 2000).utf8),
            Array("{\"results\":[{\"objectId\":\"a\",\"createdAt\":\"9999-99-99T99:99:99.999Z\"}]}".utf8),
            Array("{\"class\":\"TPV\",\"mode\":3,\"lat\":1e308,\"lon\":-1e308,\"eph\":1e400}".utf8),
            Array("POLYGON((0 0, 1e308 0, 0 1e308, 0 0))".utf8), Array("179,-90,-179,90".utf8),
            Array("{\"objectId\":\"x\",\"text\":\"t\",\"location\":{\"latitude\":1e999,\"longitude\":2}}\n".utf8),
        ]
        await Self.onDispatchThread { for input in inputs { target.run(input) } }
    }

    /// Runs `body` on a Dispatch thread. The server target waits on its thread while the server's
    /// tasks run on Swift concurrency's few threads; a test's own thread is one of those.
    private static func onDispatchThread(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                body()
                continuation.resume()
            }
        }
    }
}
