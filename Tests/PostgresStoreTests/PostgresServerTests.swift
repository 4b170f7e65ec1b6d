import Dispatch
import EmbeddedStore
import Foundation
import Synchronization
import TestSupport
import Testing

/// anywall-server on PostgreSQL with PostGIS, where one database serves several servers: each
/// test starts its own throw-away cluster. (The rest of the server's suite runs on PostgreSQL
/// too, with ANYWALL_TEST_STORE=postgres.)
@Suite("anywall-server on PostgreSQL: many servers, one wall")
struct PostgresServerTests {
    private static let keys = ["PARSE_SERVER_APPLICATION_ID": Sandbox.applicationId, "PARSE_SERVER_MASTER_KEY": Sandbox.masterKey]

    private static func sessionHeaders(_ token: String) -> [String: String] {
        WallServer.keyHeaders.merging(["X-Parse-Session-Token": token]) { $1 }
    }

    /// Every post's text on the wall, read through `server`.
    private static func texts(_ server: WallServer) throws -> [String] {
        let answer = try server.send("GET", "/classes/Posts", query: ["limit": "1000"])
        return (answer.json["results"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    @Test("two servers on one database: a post through one is read through the other, a session opened on one works on the other, and a request id retried on the other is a duplicate")
    func twoServersOneWall() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let first = try WallServer(database: cluster.uri), second = try WallServer(database: cluster.uri)
        let alice = try first.signUp("alice")

        let posted = try first.post("through the first", latitude: 52.52, longitude: 13.40, token: alice.token, requestId: "retry-me")
        #expect(posted.status == 201, "\(posted)")
        let id = try #require(posted.json["objectId"] as? String)
        let read = try second.send("GET", "/classes/Posts/\(id)")
        #expect(read.status == 200 && read.json["text"] as? String == "through the first", "\(read)")

        let retried = try second.post("through the first", latitude: 52.52, longitude: 13.40, token: alice.token, requestId: "retry-me")
        #expect(retried.status == 400 && retried.json["code"] as? Int == 159, "a retry on the other server is refused: \(retried)")
        let me = try second.send("GET", "/users/me", headers: Self.sessionHeaders(alice.token))
        #expect(me.json["username"] as? String == "alice", "\(me)")
        #expect(try second.post("through the second", latitude: 52.53, longitude: 13.41, token: alice.token).status == 201)
        #expect(try Self.texts(first).sorted() == ["through the first", "through the second"])
        let taken = try second.send("POST", "/users", json: ["username": "ALICE", "password": "pw"])
        #expect(taken.json["code"] as? Int == 202, "usernames are one per wall, whichever server: \(taken)")
    }

    @Test("one of two servers killed with SIGKILL under write load: the other keeps serving, and every post answered 201 is on the wall once")
    func killedUnderLoad() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let doomed = try WallServer(database: cluster.uri), survivor = try WallServer(database: cluster.uri)
        let token = try survivor.signUp("writer").token
        let writers = 8, postsEach = 40
        let results = Mutex<(acknowledged: [String], survivorFailures: [String])>(([], []))
        let killed = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            doomed.stop(signal: SIGKILL)
            killed.signal()
        }
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for index in 0..<postsEach {
                let text = "writer \(writer) post \(index)"
                let server = index.isMultiple(of: 2) ? doomed : survivor
                let answer = try? server.post(text, latitude: 48.85, longitude: 2.35, token: token, requestId: "w\(writer)-\(index)")
                results.withLock {
                    if answer?.status == 201 { $0.acknowledged.append(text) }
                    if server === survivor, answer?.status != 201 { $0.survivorFailures.append("\(text): \(answer.map(\.description) ?? "no answer")") }
                }
            }
        }
        killed.wait()
        let (acknowledged, survivorFailures) = results.withLock { $0 }
        let onWall = try Self.texts(survivor)
        #expect(survivorFailures.isEmpty, "the surviving server answered every post: \(survivorFailures.prefix(3))")
        #expect(Set(acknowledged).isSubset(of: Set(onWall)), "lost: \(Set(acknowledged).subtracting(onWall).sorted().prefix(5))")
        #expect(onWall.count == Set(onWall).count, "none twice")
        #expect(acknowledged.count >= writers * postsEach / 2, "the survivor's half at least: \(acknowledged.count)")
    }

    @Test("a database that is down, refuses the user, lacks the database or PostGIS, or a bad URI: one line and a distinct exit status")
    func startFailures() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        try cluster.sql("CREATE DATABASE plain TEMPLATE template0")
        let nowhere = try Loopback.freePort()
        for (uri, status, message) in [
            ("postgres://postgres@127.0.0.1:\(nowhere)/anywall", Int32(69), "cannot reach PostgreSQL at postgres://postgres@127.0.0.1:\(nowhere)/anywall"),
            ("postgres://nobody@127.0.0.1:\(cluster.port)/anywall", 77, "refused"),
            ("postgres://postgres@127.0.0.1:\(cluster.port)/nosuchwall", 77, "refused"),
            ("postgres://postgres@127.0.0.1:\(cluster.port)/plain", 72, "no PostGIS"),
            ("postgres://127.0.0.1:\(cluster.port)/anywall", 64, "names no user"),
        ] {
            let (exit, text) = try WallServer.runToExit(["--database", uri, "--port", "0"], environment: Self.keys)
            #expect(exit == status && text.contains(message), "\(uri): exit \(exit): \(text)")
            if status != 64 { #expect(text.split(separator: "\n").count == 1, "one line, not a trace: \(text)") }
        }
        let fromEnvironment = try WallServer.runToExit(["--port", "0"], environment: Self.keys.merging(
            ["PARSE_SERVER_DATABASE_URI": "postgres://postgres@127.0.0.1:\(cluster.port)/plain"]) { $1 })
        #expect(fromEnvironment.status == 72, "PARSE_SERVER_DATABASE_URI is read: \(fromEnvironment)")
    }

    @Test("a database lost while serving: Parse's error 1 with the reason in the log, no crash; served again once it is back")
    func lostDatabase() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let server = try WallServer(database: cluster.uri)
        let token = try server.signUp("bob").token
        #expect(try server.post("before", latitude: 1, longitude: 1, token: token).status == 201)

        try cluster.stopServer()
        let during = try server.send("GET", "/classes/Posts")
        #expect(during.status == 500 && during.json["code"] as? Int == 1, "\(during)")
        let posting = try server.post("during", latitude: 1, longitude: 1, token: token)
        #expect(posting.status == 500 && posting.json["code"] as? Int == 1, "\(posting)")
        #expect(server.logEvents.contains { ($0["event"] as? String) == "error" && ($0["error"] as? String ?? "").contains("\(cluster.uri) failed while") },
                "the reason is in the log: \(server.log.suffix(1500))")

        try cluster.start()
        var after: WallServer.Answer?
        let deadline = ContinuousClock.now + .seconds(30)
        repeat {
            after = try? server.post("after", latitude: 1, longitude: 1, token: token)
            if after?.status != 201 { Thread.sleep(forTimeInterval: 0.2) }
        } while after?.status != 201 && ContinuousClock.now < deadline
        #expect(after?.status == 201, "the server reconnected by itself: \(after.map(\.description) ?? "no answer")")
        #expect(try Self.texts(server).sorted() == ["after", "before"])
    }

    @Test("distances agree with the SQLite store: posts just inside and just outside a radius are kept and left out alike, in the same order")
    func sameSphere() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-sphere-\(UUID().uuidString).sqlite")
        let onPostgres = try WallServer(database: cluster.uri), onSQLite = try WallServer(wall: ["--store", file.path])
        // 10 km north, east and across the antimeridian, each a millimetre inside and outside, on
        // anywall's sphere of 6371 km: one degree of latitude is 6371 km * pi / 180.
        let meterInDegrees = 180 / (.pi * 6_371_000.0)
        let center = (latitude: 10.0, longitude: 179.99)
        var places: [(String, Double, Double)] = []
        for (name, north, south) in [("inside", 9_999.999, 9_999.990), ("outside", 10_000.001, 10_000.010)] {
            places.append(("north \(name)", center.latitude + north * meterInDegrees, center.longitude))
            places.append(("south \(name)", center.latitude - south * meterInDegrees, center.longitude))
        }
        places.append(("across 180", center.latitude, -179.995))
        places.append(("far", center.latitude, 170))
        var answers: [[String]] = []
        for server in [onPostgres, onSQLite] {
            let token = try server.signUp("carol").token
            for (text, latitude, longitude) in places {
                #expect(try server.post(text, latitude: latitude, longitude: longitude, token: token).status == 201)
            }
            for query in [["$nearSphere": point(center), "$maxDistanceInKilometers": 10] as [String: Any],
                          ["$geoWithin": ["$centerSphere": [[center.longitude, center.latitude], 10 / 6371.0]]]] {
                let whereClause = String(decoding: try JSONSerialization.data(withJSONObject: ["location": query]), as: UTF8.self)
                let answer = try server.send("GET", "/classes/Posts", query: ["where": whereClause])
                answers.append((answer.json["results"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String })
            }
        }
        #expect(answers[0] == ["across 180", "south inside", "north inside"], "PostgreSQL, nearest first: \(answers[0])")
        #expect(answers[0] == answers[2], "the same on both stores: \(answers[2])")
        #expect(answers[1].sorted() == answers[3].sorted(), "the same posts within the sphere's circle")
        #expect(Set(answers[1]) == ["across 180", "north inside", "south inside"])
    }

    @Test("a find still running at --query-timeout is stopped by PostgreSQL itself: 124, no statement left running, the next find answered",
          .timeLimit(.minutes(2)))
    func statementTimeout() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let server = try WallServer(database: cluster.uri, arguments: ["--query-timeout", "1"])
        let token = try server.signUp("bob").token
        for n in 0..<200 {
            #expect(try server.post("\(String(repeating: "a", count: 17))! post \(n)", latitude: 1, longitude: 2, token: token).status == 201)
        }
        func find(_ pattern: String) throws -> WallServer.Answer {
            let whereClause = String(decoding: try JSONSerialization.data(withJSONObject: ["text": ["$regex": pattern]]), as: UTF8.self)
            return try server.send("GET", "/classes/Posts", query: ["where": whereClause, "count": "1"])
        }
        // PostgreSQL's engine backtracks through the six groups on every post: ~20 ms each, seconds for all.
        let stopped = try find(#"(a*)(a*)(a*)(a*)(a*)(a*)\6\5\4\3\2\1!"#)
        #expect(stopped.status == 400 && stopped.json["code"] as? Int == 124, "\(stopped)")
        let running = try cluster.sql("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%~%' AND pid <> pg_backend_pid()")
        #expect(running.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "the database stopped the statement: \(running)")
        let answered = try find("post 12$")
        #expect(answered.status == 200 && answered.json["count"] as? Int == 1, "\(answered)")
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "a stopped query is the client's doing: \(server.log.suffix(1500))")
    }

    @Test("posts tied at the limit: both stores answer the nearer posts, then the tied ones with the smallest object ids")
    func tiesAtTheLimit() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-ties-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        for server in [try WallServer(database: cluster.uri), try WallServer(wall: ["--store", file.path])] {
            let token = try server.signUp("tia").token
            func post(_ text: String, _ latitude: Double) throws -> String {
                let answer = try server.post(text, latitude: latitude, longitude: 18.0, token: token)
                #expect(answer.status == 201)
                return answer.json["objectId"] as? String ?? ""
            }
            let nearer = try (0..<3).map { try post("nearer \($0)", 59.30001 + Double($0) * 0.00001) }
            let tied = try (0..<12).map { try post("tied \($0)", 59.301) }
            _ = try post("farther", 59.302)
            let whereClause = #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":59.3,"longitude":18.0},"$maxDistanceInKilometers":1}}"#
            let answer = try server.send("GET", "/classes/Posts", query: ["where": whereClause, "limit": "8"])
            let found = (answer.json["results"] as? [[String: Any]] ?? []).compactMap { $0["objectId"] as? String }
            #expect(found == nearer + tied.sorted().prefix(5), "\(answer)")
        }
    }

    @Test("the nearest posts, and the posts counted within a circle, agree with the SQLite store around both poles, across the antimeridian, on a pile of posts at one point and anywhere, for a stranger and for a reader of private posts")
    func nearestAgreeEverywhere() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-nearest-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        var server = try WallServer(wall: ["--store", file.path])
        let dana = try server.signUp("dana"), eve = try server.signUp("eve")
        var generator = SeededGenerator(seed: 37)
        func random(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &generator) }
        var places: [(latitude: Double, longitude: Double)] = []
        places += (0..<40).map { _ in (random(89.0...89.9999), random(-179.99...179.99)) }
        places += (0..<20).map { _ in (random(-89.9999 ... -89.0), random(-179.99...179.99)) }
        places += (0..<60).map { index in (random(-10.0...10.0), index.isMultiple(of: 2) ? random(179.5...179.9999) : random(-179.9999 ... -179.5)) }
        places += Array(repeating: (48.8566, 2.3522), count: 40) + (0..<20).map { _ in (48.8566 + random(-0.0001...0.0001), 2.3522 + random(-0.0001...0.0001)) }
        places += (0..<100).map { _ in (random(-89.9...89.9), random(-179.99...179.99)) }
        for (index, place) in places.enumerated() {
            // Every fourth post is dana's alone to read: her search counts it, a stranger's does not.
            var body: [String: Any] = ["text": "post \(index)", "location": point(place)]
            if index % 4 == 1 { body["ACL"] = [dana.objectId: ["read": true, "write": true]] }
            let answer = try server.send("POST", "/classes/Posts", headers: Self.sessionHeaders(index % 4 == 1 ? dana.token : eve.token), json: body)
            #expect(answer.status == 201, "\(answer)")
        }
        let centers: [(latitude: Double, longitude: Double)] = [(89.9999, 0), (89.9, 45), (89.5, -170), (-89.95, 100), (-89.9999, 0), (0, 179.9999), (0, -179.99),
                                                                (5, 179.9), (-3, -179.7), (48.8566, 2.3522), (48.8567, 2.3523), (48.9, 2.4)]
            + (0..<12).map { _ in (random(-89.9...89.9), random(-179.99...179.99)) }
        func answers(_ server: WallServer) throws -> [[String]] {
            var found: [[String]] = []
            for center in centers {
                for (kilometers, limit) in [(50.0, 3), (2_000.0, 20), (30_000.0, 20)] {
                    let near = ["location": ["$nearSphere": point(center), "$maxDistanceInKilometers": kilometers]]
                    let whereClause = String(decoding: try JSONSerialization.data(withJSONObject: near), as: UTF8.self)
                    for headers in [WallServer.keyHeaders, Self.sessionHeaders(dana.token)] {
                        let answer = try server.send("GET", "/classes/Posts", query: ["where": whereClause, "limit": "\(limit)"], headers: headers)
                        #expect(answer.status == 200, "\(answer)")
                        found.append((answer.json["results"] as? [[String: Any]] ?? []).compactMap { $0["objectId"] as? String })
                    }
                }
                // Every post within 2,000 km, counted: a scan of the circle, not the nearest search.
                let near = ["location": ["$nearSphere": point(center), "$maxDistanceInKilometers": 2_000]]
                let whereClause = String(decoding: try JSONSerialization.data(withJSONObject: near), as: UTF8.self)
                let answer = try server.send("GET", "/classes/Posts", query: ["where": whereClause, "limit": "1000", "count": "1"],
                                             headers: Self.sessionHeaders(dana.token))
                #expect(answer.status == 200, "\(answer)")
                found.append((answer.json["results"] as? [[String: Any]] ?? []).compactMap { $0["objectId"] as? String }.sorted() + ["\(answer.json["count"] ?? "")"])
            }
            return found
        }
        let onSQLite = try answers(server)
        server.stop()
        // The circles' counts against the places themselves (dana reads every post): both stores
        // read a circle through boxes made the same way, so agreeing alone would not show them whole.
        for (index, center) in centers.enumerated() {
            let within = places.filter { Self.kilometers(from: center, to: $0) <= 2_000 }.count
            #expect(onSQLite[index * 7 + 6].last == "\(within)", "\(within) posts within 2,000 km of \(center)")
        }
        #expect(onSQLite.contains { $0.count == 20 } && onSQLite.contains { $0.isEmpty } && onSQLite.contains { (1..<20).contains($0.count) }
                && onSQLite.contains { $0.count > 20 }, "full, empty and partial answers are all compared, and circles of many posts")

        let copied = try WallServer.runToExitWithOutput(["copy", "--from", file.path, "--to", cluster.uri], environment: Self.keys)
        #expect(copied.status == 0, "\(copied)")
        server = try WallServer(database: cluster.uri)
        let onPostgres = try answers(server)
        var index = 0
        for center in centers {
            for kilometers in [50.0, 2_000.0, 30_000.0] {
                for reader in ["a stranger", "dana"] {
                    #expect(onPostgres[index] == onSQLite[index], "at \(center), within \(kilometers) km, for \(reader)")
                    index += 1
                }
            }
            #expect(onPostgres[index] == onSQLite[index], "every post within 2,000 km of \(center)")
            index += 1
        }
    }

    @Test("a streaming standby serves reads: a user sees their own post at once, others' reads go to the standby, and the standby stopped and started again costs clients nothing")
    func streamingStandby() throws {
        let primary = try PostgresCluster()
        defer { primary.stop() }
        // Every statement the standby runs is in its log: that is how the test sees what it served.
        let standby = try primary.standby(settings: ["log_statement = 'all'"])
        defer { standby.stop() }
        let server = try WallServer(database: primary.uri, arguments: ["--database-replica", standby.uri])
        let alice = try server.signUp("alice"), bob = try server.signUp("bob")

        for index in 0..<20 {
            let posted = try server.post("post \(index)", latitude: 35.68, longitude: 139.76, token: alice.token)
            let id = try #require(posted.json["objectId"] as? String, "\(posted)")
            let read = try server.send("GET", "/classes/Posts/\(id)", headers: Self.sessionHeaders(alice.token))
            #expect(read.status == 200, "alice reads her own post at once: \(read)")
        }
        let servedByStandby = {
            ((try? String(contentsOf: standby.logFile, encoding: .utf8)) ?? "").components(separatedBy: "FROM posts LEFT JOIN users").count - 1
        }
        func bobReadsFromStandby() -> Bool {
            let before = servedByStandby()
            let deadline = ContinuousClock.now + .seconds(15)
            while ContinuousClock.now < deadline {
                _ = try? server.send("GET", "/classes/Posts", headers: Self.sessionHeaders(bob.token))
                if servedByStandby() > before { return true }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }
        #expect(bobReadsFromStandby(), "reads reach the standby")

        try standby.stopServer()
        for _ in 0..<20 {
            let read = try server.send("GET", "/classes/Posts", query: ["limit": "100"], headers: Self.sessionHeaders(bob.token))
            #expect(read.status == 200 && (read.json["results"] as? [Any])?.count == 20, "served without the standby: \(read.status)")
        }
        try standby.start()
        #expect(bobReadsFromStandby(), "the standby serves reads again once it is back")
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "\(server.log.suffix(1500))")
    }

    @Test("anywall-server copy, SQLite to PostgreSQL and back: the same counts, the same answers, and members keep their passwords and sessions")
    func copyBothWays() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("original.sqlite"), back = folder.appendingPathComponent("back.sqlite")

        var server = try WallServer(wall: ["--store", original.path])
        let dana = try server.signUp("dana", password: "dana's password"), eve = try server.signUp("eve")
        var generator = SeededGenerator(seed: 15)
        var firstPost = ""
        for index in 0..<60 {
            let token = index.isMultiple(of: 3) ? eve.token : dana.token
            // Every fifth post is dana's alone to read, and each has a field of its own: both travel with the copy.
            var body: [String: Any] = ["text": "post \(index)", "points": index, "location": [
                "__type": "GeoPoint", "latitude": 59.3 + Double.random(in: -0.5...0.5, using: &generator),
                "longitude": 18.0 + Double.random(in: -0.5...0.5, using: &generator)]]
            if index % 5 == 1 { body["ACL"] = [dana.objectId: ["read": true, "write": true]] }
            let answer = try server.send("POST", "/classes/Posts", headers: Self.sessionHeaders(index % 5 == 1 ? dana.token : token), json: body)
            #expect(answer.status == 201)
            if index == 0 { firstPost = answer.json["objectId"] as? String ?? "" }
        }
        // An edited post keeps its edit time apart from its creation time.
        let edit = try server.send("PUT", "/classes/Posts/\(firstPost)", headers: Self.sessionHeaders(eve.token), json: ["text": "post 0, edited"])
        #expect(edit.status == 200, "\(edit)")
        let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }
        #expect(try server.send("PUT", "/config", headers: master, json: ["params": ["postMaxCharacterCount": 200]]).status == 200)
        func answers(_ server: WallServer) throws -> [String] {
            let near = ["location": ["$nearSphere": ["__type": "GeoPoint", "latitude": 59.3, "longitude": 18.0], "$maxDistanceInKilometers": 30]]
            let box = ["location": ["$within": ["$box": [["__type": "GeoPoint", "latitude": 59.0, "longitude": 17.8],
                                                         ["__type": "GeoPoint", "latitude": 59.5, "longitude": 18.2]]]]]
            return try [near, box].flatMap { clause in
                let text = String(decoding: try JSONSerialization.data(withJSONObject: clause), as: UTF8.self)
                let query = ["where": text, "include": "user", "count": "1", "limit": "1000", "order": "-points"]
                return [try server.send("GET", "/classes/Posts", query: query).text,
                        try server.send("GET", "/classes/Posts", query: query, headers: Self.sessionHeaders(dana.token)).text]
            } + [try server.send("GET", "/config").text, try server.send("GET", "/users/me", headers: Self.sessionHeaders(dana.token)).text]
        }
        let before = try answers(server)
        server.stop()

        let copied = try WallServer.runToExitWithOutput(["copy", "--from", original.path, "--to", cluster.uri], environment: Self.keys)
        #expect(copied.status == 0 && copied.stdout == "copied 2 accounts, 2 sessions, 60 posts, 1 config keys\n", "\(copied)")
        // Copied posts are not changes anyone saw happen: no row a post in the change log, whose
        // horizon moved past them instead (a LiveQuery subscriber from before reads the wall again).
        let changeRows = try cluster.sql("SELECT count(*) FROM post_changes").trimmingCharacters(in: .whitespacesAndNewlines)
        let horizon = try cluster.sql("SELECT pruned_through FROM change_horizon").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(changeRows == "0" && (Int(horizon) ?? 0) > 0, "\(changeRows) change rows, pruned through \(horizon)")
        server = try WallServer(database: cluster.uri)
        #expect(try answers(server) == before, "the same answers from PostgreSQL")
        let login = try server.send("GET", "/login", query: ["username": "dana", "password": "dana's password"])
        #expect(login.status == 200, "the password hash came along: \(login)")
        server.stop()

        let refused = try WallServer.runToExitWithOutput(["copy", "--from", original.path, "--to", cluster.uri], environment: Self.keys)
        #expect(refused.status == 78 && refused.stderr.contains("already holds a wall") && refused.stdout.isEmpty, "\(refused)")
        let typo = folder.appendingPathComponent("orignal.sqlite")
        let missing = try WallServer.runToExitWithOutput(["copy", "--from", typo.path, "--to", cluster.uri, "--replace"], environment: Self.keys)
        #expect(missing.status == 69 && missing.stderr.contains("there is no wall at") && !FileManager.default.fileExists(atPath: typo.path),
                "a mistyped source is not made and copied as an empty wall: \(missing)")
        let replaced = try WallServer.runToExitWithOutput(["copy", "--from", original.path, "--to", cluster.uri, "--replace"], environment: Self.keys)
        #expect(replaced.status == 0, "\(replaced)")

        let returned = try WallServer.runToExitWithOutput(["copy", "--from", cluster.uri, "--to", back.path], environment: Self.keys)
        #expect(returned.status == 0 && returned.stdout == copied.stdout, "\(returned)")
        let backLog = try EmbeddedWall(file: back).postChanges(after: 0, limit: 1_000)
        #expect(backLog.changes.isEmpty && backLog.prunedThrough > 0, "the SQLite copy's log is a gap, not a row a post")
        server = try WallServer(wall: ["--store", back.path])
        #expect(try answers(server) == before, "the same answers from the SQLite file copied back")
    }

    @Test("LiveQuery across two servers: a post through one reaches a subscriber on the other at once, and the other's LISTEN connection killed loses no event")
    func liveQueryAcrossServers() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let writer = try WallServer(database: cluster.uri), reader = try WallServer(database: cluster.uri)
        let run = try LiveQueryCheck.run("listen", against: writer, environment: ["PARSE_API_ROOT_B": reader.parseURL, "PG_URI": cluster.uri])
        #expect(run.status == 0 && run.stdout.contains(" passed, 0 failed"), "\(run.stdout.suffix(4000))\n\(run.stderr.suffix(2000))")
    }

    @Test("LiveQuery: the server taking writes killed with SIGKILL mid-stream; since on the other replays every post on the wall, once, in order")
    func liveQueryWriterKilled() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let writer = try WallServer(database: cluster.uri), reader = try WallServer(database: cluster.uri)
        DispatchQueue.global().asyncAfter(deadline: .now() + 3) { writer.stop(signal: SIGKILL) }
        let run = try LiveQueryCheck.run("killed", against: writer, environment: ["PARSE_API_ROOT_B": reader.parseURL])
        #expect(run.status == 0 && run.stdout.contains(" passed, 0 failed"), "\(run.stdout.suffix(4000))\n\(run.stderr.suffix(2000))")
    }

    /// The great-circle distance on anywall's sphere of 6371 km (haversine).
    private static func kilometers(from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let h = pow(sin((b.latitude - a.latitude) * radians / 2), 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * pow(sin((b.longitude - a.longitude) * radians / 2), 2)
        return 2 * 6_371 * asin(min(1, h.squareRoot()))
    }

    private func point(_ place: (latitude: Double, longitude: Double)) -> [String: Any] {
        ["__type": "GeoPoint", "latitude": place.latitude, "longitude": place.longitude]
    }
}
