import AnywallServer
import Dispatch
import EmbeddedStore
import Foundation
import NIOCore
import NIOPosix
import TestSupport
import Testing
import WallDomain

/// Finds read through connections of their own: one that is still reading holds up neither a
/// post nor another find.
@Suite("The SQLite store shared by the server's requests")
struct SQLiteWallStoreTests {
    @Test("a find still reading does not hold up a post, nor another find that sees the post")
    func longFindHoldsNothing() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-shared-\(UUID().uuidString).sqlite")
        let main = try temporaryWall(file: file)
        let shared = SQLiteWallStore(main, readers: [try temporaryWall(file: file), try temporaryWall(file: file)])
        let session = try main.signUp(username: "alice", password: "pw", name: nil)
        _ = try main.createStoredPost(PostDraft(text: "first", location: try GeoPoint(latitude: 1, longitude: 1)), by: .session(session.token), requestId: "a")

        let reading = DispatchSemaphore(value: 0), posted = DispatchSemaphore(value: 0)
        // A find that stays inside its read (its cursor open) until the post below is in: with one
        // connection for everything, the post would wait for it and the find would time out. The
        // wait is long: the post always comes after it when the two share a connection, however
        // long it is, and the suite's parallel tests on 2 cores once kept the post out past 10 s.
        async let sawPostInTime: Bool = shared.query { wall in
            var waited = false
            try wall.forEachStoredPost(inAny: nil, where: .always) { _ in
                reading.signal()
                waited = posted.wait(timeout: .now() + 60) == .success
            }
            return waited
        }
        await Task.detached { reading.wait() }.value
        let created = try await shared.run {
            try $0.createStoredPost(PostDraft(text: "second", location: try GeoPoint(latitude: 1, longitude: 1)), by: .session(session.token), requestId: "b")
        }
        let found = try await shared.query { try $0.storedPost(objectId: created.objectId) }
        posted.signal()
        #expect(try await sawPostInTime)
        #expect(found?.text == "second")
    }

    @Test("posts asked for at once are all written, each answered alone: a spent request id or an ended session refuses only its own")
    func groupCommit() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-group-\(UUID().uuidString).sqlite")
        let main = try temporaryWall(file: file)
        let shared = SQLiteWallStore(main, readers: [try temporaryWall(file: file)])
        let session = try main.signUp(username: "alice", password: "pw", name: nil)
        let place = try GeoPoint(latitude: 1, longitude: 1)
        let outcomes = await withTaskGroup(of: (Int, Result<StoredPost, any Error>).self) { group in
            for n in 0..<200 {
                group.addTask {
                    // Post 7's request id is that of post 3, post 11 comes with a token no session has.
                    let requestId = n == 7 ? "request-3" : "request-\(n)"
                    let token = n == 11 ? "no-such-session" : session.token
                    let draft = PostDraft(text: "post \(n)", location: place)
                    do {
                        return (n, .success(try await shared.createPost(draft, by: .session(token), requestId: requestId)))
                    } catch {
                        return (n, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        var refused: [Int: AnywallError] = [:]
        for (n, outcome) in outcomes {
            if case .failure(let error) = outcome { refused[n] = error as? AnywallError }
        }
        // Either of the two posts with the same request id may have come first.
        #expect(Set(refused.keys) == [7, 11] || Set(refused.keys) == [3, 11])
        #expect(refused[11] == .sessionExpired)
        #expect(refused.values.contains(.duplicateRequest(requestId: "request-3")))
        let stored = try await shared.query { wall in
            var texts: [String] = []
            try wall.forEachStoredPost(inAny: nil, where: .always) { texts.append($0.text) }
            return texts
        }
        let answered = outcomes.compactMap { n, outcome in (try? outcome.get()).map { _ in "post \(n)" } }
        #expect(stored.sorted() == answered.sorted())
        #expect(stored.count == 198)
    }

    @Test("a post fetched while every query connection is busy waits for one, then answers", .timeLimit(.minutes(1)))
    func boundedReadWaitsForConnection() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-bounded-\(UUID().uuidString).sqlite")
        let main = try temporaryWall(file: file)
        let shared = SQLiteWallStore(main, readers: [try temporaryWall(file: file)])
        let session = try main.signUp(username: "alice", password: "pw", name: nil)
        let post = try main.createStoredPost(PostDraft(text: "here", location: try GeoPoint(latitude: 1, longitude: 1)), by: .session(session.token),
                                             requestId: "a")

        let reading = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        // The only query connection stays inside this read until released.
        async let longRead: Void = shared.query { wall in
            try wall.forEachStoredPost(inAny: nil, where: .always) { _ in
                reading.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        }
        await Task.detached { reading.wait() }.value
        async let fetched = shared.boundedQuery { try $0.storedPost(objectId: post.objectId) }
        // Released a little later, so the fetch finds the connection busy first.
        try await Task.sleep(for: .milliseconds(200))
        release.signal()
        #expect(try await fetched?.text == "here")
        try await longRead
    }

    @Test("on an event loop a bounded read runs in place while a query connection is idle, and on another thread while none is",
          .timeLimit(.minutes(1)))
    func boundedReadOnEventLoop() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-loop-\(UUID().uuidString).sqlite")
        let shared = SQLiteWallStore(try temporaryWall(file: file), readers: [try temporaryWall(file: file)])
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = LoopTaskExecutor(loops.next())
        /// Whether a bounded read asked by a task on the loop ran on the loop's thread.
        @Sendable func boundedReadStaysOnLoop() async throws -> Bool {
            try await Task(executorPreference: loop) {
                try await shared.boundedQuery { _ in MultiThreadedEventLoopGroup.currentEventLoop != nil }
            }.value
        }
        #expect(try await boundedReadStaysOnLoop())

        let reading = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        // The only query connection stays inside this read until released.
        async let longRead: Void = shared.query { _ in
            reading.signal()
            _ = release.wait(timeout: .now() + 30)
        }
        await Task.detached { reading.wait() }.value
        async let stayed = boundedReadStaysOnLoop()
        // The loop is not held while the read waits for the connection: it still runs other work.
        try await Task.sleep(for: .milliseconds(100))
        #expect(try await loops.next().submit { true }.get())
        release.signal()
        #expect(try await stayed == false)
        try await longRead
        try await loops.shutdownGracefully()
    }

    @Test("a find still running at --query-timeout is answered 124 at once, and the next find is answered", .timeLimit(.minutes(1)))
    func findStoppedAtTimeLimit() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-deadline-\(UUID().uuidString)")
            .appendingPathComponent("wall.sqlite")
        // Seconds of ICU's matching without a limit: 3,000 posts, each just under the limit on one match.
        try CostlyPosts.load(3_000, into: try temporaryWall(file: file))
        let server = try WallServer(wall: ["--store", file.path], arguments: ["--query-timeout", "1"])
        defer { _ = server.stop() }
        func find(_ pattern: String, count: Bool = false) throws -> WallServer.Answer {
            let whereClause = String(decoding: try JSONSerialization.data(withJSONObject: ["text": ["$regex": pattern]]), as: UTF8.self)
            return try server.send("GET", "/classes/Posts", query: ["where": whereClause, "limit": "5"].merging(count ? ["count": "1"] : [:]) { $1 })
        }
        for counted in [false, true] {
            let stopped = try find(CostlyPosts.pattern, count: counted)
            #expect(stopped.status == 400, "\(stopped)")
            #expect(stopped.json["code"] as? Int == 124, "\(stopped)")
            #expect(stopped.json["error"] as? String == "the query ran past the server's limit of 1 s; narrow it (a smaller area, a simpler $regex)")
        }
        let answered = try find("post 12$")
        #expect(answered.status == 200, "\(answered)")
        #expect((answered.json["results"] as? [[String: Any]])?.count == 1, "\(answered)")
    }

    @Test("--query-timeout out of range is a usage error")
    func queryTimeoutRange() throws {
        for seconds in ["0", "601", "86400", "soon"] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-deadline-\(UUID().uuidString).sqlite")
            let (status, stderr) = try WallServer.runToExit(["--store", file.path, "--query-timeout", seconds], environment: [:])
            #expect(status == 64, "\(seconds): \(stderr)")
            #expect(stderr.contains("--query-timeout"), "\(seconds): \(stderr)")
        }
    }
}

/// Runs tasks that prefer it on one event loop, as anywall-server runs its requests' tasks (there
/// through Swift concurrency's global executor, which a test process cannot hand to SwiftNIO).
private final class LoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
