import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The server killed with SIGKILL in the middle of writes, and started again on the same wall.
@Suite("anywall-server killed under write load")
struct ServerCrashTests {
    @Test("50 writers post while the server is killed twice with SIGKILL: every acknowledged post is there, none twice")
    func killedUnderLoad() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory
            .appendingPathComponent("anywall-server-\(UUID().uuidString).sqlite"))
        let token = try server.signUp("writer").token
        let writers = 50, postsEach = 6
        let acknowledged = NSLock()
        nonisolated(unsafe) var answered: [String: Int] = [:]
        let killer = Thread {
            for _ in 0..<2 {
                Thread.sleep(forTimeInterval: 0.4)
                server.stop(signal: SIGKILL)
                Thread.sleep(forTimeInterval: 0.2)
                try? server.start()
            }
        }
        killer.start()
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for index in 0..<postsEach {
                let text = "writer \(writer) post \(index)"
                // Like the outbox: the same request id every try, until the server answers.
                let deadline = ContinuousClock.now + .seconds(60)
                while ContinuousClock.now < deadline {
                    if let answer = try? server.post(text, latitude: 48.85, longitude: 2.35, token: token, requestId: "req-\(writer)-\(index)"),
                       answer.status == 201 || answer.json["code"] as? Int == 159 {
                        acknowledged.withLock { answered[text] = answer.status }
                        break
                    }
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }
        while killer.isExecuting { Thread.sleep(forTimeInterval: 0.05) }
        #expect(answered.count == writers * postsEach, "some posts were never answered")
        let all = try server.send("GET", "/classes/Posts", query: ["limit": "1000", "keys": "text"])
        let texts = ((all.json["results"] as? [[String: Any]]) ?? []).compactMap { $0["text"] as? String }
        let counts = Dictionary(texts.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts.values.allSatisfy { $0 == 1 }, "posted twice: \(counts.filter { $0.value > 1 }.keys.sorted())")
        let lost = answered.keys.filter { counts[$0] == nil }
        #expect(lost.isEmpty, "acknowledged but lost: \(lost.sorted())")
        #expect(server.logEvents.filter { $0["event"] as? String == "listening" }.count == 3, "the server was not restarted twice")
        #expect(server.stop() == 0)
    }
}
