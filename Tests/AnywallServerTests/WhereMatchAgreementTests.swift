import EmbeddedStore
import Foundation
import ParseWire
import TestSupport
import Testing
import WallDomain

/// The one matcher, evaluated both ways: for random posts and random `where` clauses, the posts a
/// REST find returns (the store's SQL, on the store this run uses: `TestStore`) are exactly those
/// `WhereMatch` admits in memory, for the master key, for nobody signed in, and for users who hold
/// roles. A failure names the seed (run again with `ANYWALL_MATCH_SEED=N`), the reader and the where.
@Suite("anywall-server: the live matcher agrees with REST finds")
struct WhereMatchAgreementTests {
    static let seed = ProcessInfo.processInfo.environment["ANYWALL_MATCH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
    static let center = (latitude: 37.7793, longitude: -122.4193)
    static let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }

    /// Texts that order differently by bytes than by people's rules, differ only in case or in how
    /// an accent is written, hold a line break, and suit the patterns `Clauses` asks.
    static let texts = ["Free coffee", "free parking", "Lost cat", "B", "a", "Zebra crossing", "caf\u{E9}", "cafe\u{301}", "\u{C9}clair",
                        "line1\nline2", "\u{F1}and\u{FA}", "emoji \u{1F389} party", "42 is the answer", "Road closed at the bridge", "quiet"]
    static let moods = ["happy", "Happy", "calm", "sad", "\u{E9}t\u{E9}", "", "B", "a"]
    /// Dates as clients write them, some without milliseconds or in another zone: the wall keeps one form.
    static let dates = ["2024-01-01T10:00:00.000Z", "2024-01-01T10:00:00Z", "2024-01-01T10:00:00.001Z", "2023-12-31T23:59:59.999Z",
                        "2025-06-01T12:00:00.000+02:00", "1999-12-31T00:00:00.000Z"]
    static let tags: [JSONValue] = [.string("food"), .string("music"), .string("Food"), .string("5"), .number(5), .number(1), .bool(true)]

    @Test("random posts and random where clauses: the same posts in memory as from the store, for every reader")
    func agreement() throws {
        var random = SeededGenerator(seed: Self.seed)
        let wall = try Wall(random: &random)
        let readers: [(name: String, token: String?, reader: PostReader, roles: Set<String>)] = [
            ("master", nil, .master, []), ("nobody", nil, .user(nil), []),
            ("alice", wall.users[0].token, .user(wall.users[0].objectId), []),
            ("bob, a friend", wall.users[1].token, .user(wall.users[1].objectId), ["friends"]),
            ("carol, a moderator", wall.users[2].token, .user(wall.users[2].objectId), [RoleName.moderators]),
        ]
        let clauses = Clauses(wall: wall)
        for round in 0..<240 {
            let whereJSON = clauses.next(&random)
            let (name, token, reader, roles) = readers[round % readers.count]
            let text = String(decoding: try JSONEncoder().encode(whereJSON), as: UTF8.self)
            let context = "seed \(Self.seed), round \(round), reader \(name), where \(text)"
            var headers = token.map { WallServer.keyHeaders.merging(["X-Parse-Session-Token": $0]) { $1 } } ?? WallServer.keyHeaders
            if reader == .master { headers = Self.master }
            let answer = try wall.server.send("GET", "/classes/Posts", query: ["where": text, "limit": "1000"], headers: headers)
            let clause = try WhereClause(json: whereJSON)
            let match = try WhereMatch(clause, reader: reader, patterns: BoundedTextPatterns())
            let expected = Set(wall.posts.filter { match.admits($0, schema: wall.schema, readerRoles: roles) }.map(\.objectId))
            guard answer.status == 200, let results = answer.json["results"] as? [[String: Any]] else {
                Issue.record("the find was refused: \(answer); \(context)")
                continue
            }
            let found = Set(results.compactMap { $0["objectId"] as? String })
            #expect(found == expected,
                    "only the store: \(wall.describe(found.subtracting(expected))); only in memory: \(wall.describe(expected.subtracting(found))); \(context)")
        }
    }

    /// A wall of users, roles and random posts, on a server of the store this run uses, and the
    /// posts as the master key reads them back whole.
    struct Wall {
        let server: WallServer
        let users: [(token: String, objectId: String)]
        private(set) var posts: [StoredPost] = []
        private(set) var schema: [String: FieldType] = [:]

        init(random: inout SeededGenerator) throws {
            server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-match-\(UUID().uuidString).sqlite"))
            var users: [(token: String, objectId: String)] = []
            for (username, name) in [("alice", "Alice"), ("bob", "bob b"), ("carol", nil), ("dave", "B")] as [(String, String?)] {
                var body: [String: Any] = ["username": username, "password": "pw"]
                if let name { body["name"] = name }
                let answer = try server.send("POST", "/users", json: body)
                guard answer.status == 201, let token = answer.json["sessionToken"] as? String, let id = answer.json["objectId"] as? String else {
                    throw HelperFailure(description: "signup of \(username): \(answer)")
                }
                users.append((token, id))
            }
            self.users = users
            for (role, holder) in [("friends", users[1].objectId), (RoleName.moderators, users[2].objectId)] {
                let made = try server.send("POST", "/roles", headers: WhereMatchAgreementTests.master, json: [
                    "name": role, "ACL": ["*": ["read": true]],
                    "users": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": holder]]]])
                guard made.status == 201 else { throw HelperFailure(description: "role \(role): \(made)") }
            }
            try write(random: &random)
            try readBack()
        }

        /// Sends the posts, replies, votes and a moderator's removals.
        private func write(random: inout SeededGenerator) throws {
            // `open`: a thread post everyone may read, which anyone may reply to.
            var made: [(id: String, author: Int, latitude: Double, longitude: Double, open: Bool)] = []
            for index in 0..<70 {
                let author = Int.random(in: 0..<users.count, using: &random)
                var body = Self.fields(random: &random)
                var latitude = WhereMatchAgreementTests.center.latitude + Double.random(in: -0.02...0.02, using: &random)
                var longitude = WhereMatchAgreementTests.center.longitude + Double.random(in: -0.025...0.025, using: &random)
                if let thread = made.filter(\.open).randomElement(using: &random), Int.random(in: 0..<4, using: &random) == 0 {
                    // A reply holds its text and place alone.
                    body = ["parent": ["__type": "Pointer", "className": "Posts", "objectId": thread.id]]
                    latitude = thread.latitude + Double.random(in: -0.0005...0.0005, using: &random)
                    longitude = thread.longitude
                }
                var text = WhereMatchAgreementTests.texts.randomElement(using: &random)!
                if Bool.random(using: &random) { text += " \(index)" }
                body["text"] = text
                body["location"] = ["__type": "GeoPoint", "latitude": latitude, "longitude": longitude]
                let access = body["parent"] == nil ? Int.random(in: 0..<5, using: &random) : -1
                switch access {
                case 0: body["ACL"] = [users[author].objectId: ["read": true, "write": true]]
                case 1: body["ACL"] = [users[author].objectId: ["read": true, "write": true], "role:friends": ["read": true]]
                case 2: body["ACL"] = ["*": ["read": true], users[author].objectId: ["write": true]]
                default: break
                }
                let answer = try server.send("POST", "/classes/Posts", headers: Self.session(users[author].token), json: body)
                guard answer.status == 201, let id = answer.json["objectId"] as? String else { throw HelperFailure(description: "post: \(answer)") }
                made.append((id, author, latitude, longitude, access >= 2))
            }
            for post in made where Int.random(in: 0..<3, using: &random) == 0 {
                for voter in users.indices where voter != post.author && Bool.random(using: &random) {
                    // A vote may be refused on a post the voter cannot read: the score is what the wall kept.
                    _ = try server.send("POST", "/classes/Activity", headers: Self.session(users[voter].token), json: [
                        "type": "vote", "post": ["__type": "Pointer", "className": "Posts", "objectId": post.id],
                        "value": Bool.random(using: &random) ? 1 : -1,
                        "location": ["__type": "GeoPoint", "latitude": post.latitude, "longitude": post.longitude]])
                }
            }
            for post in made where Int.random(in: 0..<8, using: &random) == 0 {
                // Carol moderates; a post whose ACL hides it from her stays up.
                _ = try server.send("PUT", "/classes/Posts/\(post.id)", headers: Self.session(users[2].token), json: ["removed": "moderator"])
            }
        }

        /// Added fields of a few types, each often missing.
        private static func fields(random: inout SeededGenerator) -> [String: Any] {
            var fields: [String: Any] = [:]
            func maybe() -> Bool { Int.random(in: 0..<3, using: &random) > 0 }
            if maybe() { fields["points"] = [-2, -1, 0, 0.5, 1, 2, 3, 5, 10].randomElement(using: &random)! }
            if maybe() { fields["mood"] = WhereMatchAgreementTests.moods.randomElement(using: &random)! }
            if maybe() { fields["seen"] = Bool.random(using: &random) }
            if maybe() { fields["when"] = ["__type": "Date", "iso": WhereMatchAgreementTests.dates.randomElement(using: &random)!] }
            if maybe() {
                let count = Int.random(in: 0...3, using: &random)
                fields["tags"] = (0..<count).map { _ in WhereMatchAgreementTests.tags.randomElement(using: &random)!.foundation }
            }
            return fields
        }

        /// The schema and every post, as the master key reads them.
        private mutating func readBack() throws {
            let schemaAnswer = try server.send("GET", "/schemas/Posts", headers: WhereMatchAgreementTests.master)
            let fields = try JSONDecoder().decode(JSONValue.self, from: schemaAnswer.body).fields?["fields"]
            guard case .object(let types)? = fields else { throw HelperFailure(description: "schema: \(schemaAnswer)") }
            for (name, type) in types where !RecordClass.posts.reservedNames.contains(name) {
                guard case .string(let typeName)? = type.fields?["type"], let fieldType = FieldType(rawValue: typeName) else { continue }
                schema[name] = fieldType
            }
            let answer = try server.send("GET", "/classes/Posts", query: ["limit": "1000", "include": "user"], headers: WhereMatchAgreementTests.master)
            guard case .array(let results)? = try JSONDecoder().decode(JSONValue.self, from: answer.body).fields?["results"] else {
                throw HelperFailure(description: "posts: \(answer)")
            }
            posts = try results.map(Self.storedPost)
        }

        /// A post as the master key reads it with `include=user`, back as the wall keeps it.
        private static func storedPost(_ json: JSONValue) throws -> StoredPost {
            let object = try ParsePostObject(json: json)
            var author: StoredUser?
            if case .included(let user)? = object.author, let username = user.username, let created = user.createdAt {
                author = StoredUser(objectId: user.objectId, username: username, name: user.name, createdAt: created)
            }
            var fields = object.extra
            let social = ["parent", "score", "replyCount", "reportCount", "removed", "restoredAt"].map { fields.removeValue(forKey: $0) }
            func count(_ value: JSONValue?) -> Int { value?.number.map { Int($0) } ?? 0 }
            let parent = social[0]?.fields?["objectId"]?.text
            let removed = social[4]?.text.flatMap(PostRemoval.init(rawValue:))
            guard let location = try object.location?.point() else { throw HelperFailure(description: "a post without a place: \(json)") }
            return StoredPost(objectId: object.objectId, text: object.text ?? "", location: location, author: author, createdAt: object.createdAt,
                              updatedAt: object.updatedAt ?? object.createdAt, access: PostAccess(kept: object.acl?.entries), fields: fields,
                              parent: parent, score: count(social[1]), replyCount: count(social[2]), reportCount: count(social[3]), removed: removed)
        }

        private static func session(_ token: String) -> [String: String] {
            WallServer.keyHeaders.merging(["X-Parse-Session-Token": token]) { $1 }
        }

        func post(_ objectId: String) -> StoredPost? {
            posts.first { $0.objectId == objectId }
        }

        /// Posts by objectId and text, for a failure's message.
        func describe(_ ids: Set<String>) -> String {
            ids.sorted().map { id in
                guard let post = post(id) else { return "\(id) ?" }
                return "\(id) \(post.text.debugDescription) by \(post.author.map { "\($0.username) (\($0.name ?? "-"))" } ?? "-") \(post.fields) parent \(post.parent ?? "-") removed \(post.removed?.rawValue ?? "-")"
                    + " readers \(post.access.readers.map { $0.sorted().joined(separator: " ") } ?? "*") at \(post.location.latitude),\(post.location.longitude)"
            }.joined(separator: ", ")
        }
    }

    /// Random `where` clauses over the wall's fields and places: every operator anywall-server
    /// takes on REST, nested in `$or`, `$and` and `$nor`, the author's sub-queries, and the geo
    /// operators at the top. Values are mostly ones the posts hold, so that clauses match some.
    struct Clauses {
        let wall: Wall

        func next(_ random: inout SeededGenerator) -> JSONValue {
            var fields: [String: JSONValue] = [:]
            if let location = Self.location(&random) { fields["location"] = location }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let (key, constraint) = self.constraint(&random, depth: 0)
                fields[key] = constraint
            }
            return .object(fields)
        }

        /// One key of a where and what it asks.
        private func constraint(_ random: inout SeededGenerator, depth: Int) -> (String, JSONValue) {
            let pick = Int.random(in: 0..<(depth < 2 ? 12 : 10), using: &random)
            switch pick {
            case 0..<8: return field(&random)
            case 8: return ("user", userQuery(&random))
            case 9: return ("user", .object(["$select": .object(["query": .object(["className": .string("_User"), "where": usersWhere(&random)]),
                                                                 "key": .string("objectId")])]))
            default:
                let name = ["$or", "$and", "$nor"].randomElement(using: &random)!
                let alternatives = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    let (key, value) = constraint(&random, depth: depth + 1)
                    return JSONValue.object([key: value])
                }
                return (name, .array(alternatives))
            }
        }

        /// A field and an operator on it.
        private func field(_ random: inout SeededGenerator) -> (String, JSONValue) {
            let name = ["text", "objectId", "createdAt", "updatedAt", "user", "parent", "score", "replyCount", "removed",
                        "points", "mood", "seen", "when", "tags", "unknown"].randomElement(using: &random)!
            let value = { (random: inout SeededGenerator) in self.value(for: name, &random) }
            switch Int.random(in: 0..<13, using: &random) {
            case 0: return (name, value(&random))
            case 1: return (name, .null)
            case 2: return (name, .object(["$eq": value(&random)]))
            case 3: return (name, .object(["$ne": Bool.random(using: &random) ? value(&random) : .null]))
            case 4, 5:
                let operators = ["$lt", "$lte", "$gt", "$gte"].shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random))
                return (name, .object(Dictionary(uniqueKeysWithValues: operators.map { ($0, value(&random)) })))
            case 6, 7:
                var list = (0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random) }
                if Int.random(in: 0..<3, using: &random) == 0 { list.append(.null) }
                return (name, .object([Bool.random(using: &random) ? "$in" : "$nin": .array(list)]))
            case 8: return (name, .object(["$exists": .bool(Bool.random(using: &random))]))
            default:
                var regex: [String: JSONValue] = ["$regex": .string(Self.patterns.randomElement(using: &random)!)]
                let options = "imsx".filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                if !options.isEmpty { regex["$options"] = .string(options) }
                return ([name, "text", "text", "mood"].randomElement(using: &random)!, .object(regex))
            }
        }

        /// ASCII patterns without negated classes or `\d`/`\w`: where ICU, PostgreSQL and Swift read
        /// them alike (outside ASCII, PostgreSQL's "C" classes and case folding are ASCII's alone).
        static let patterns = ["^a", "e$", "caf", "o.l", "^[A-Z]", "[0-9]", "(hap|sad)", "l+", "B", "x?e", "line1.line2", "^line2", "line1$",
                               "^$", "par ty", "py$", "^c.f", "", "ee"]

        /// A value to compare `name` with: of its type mostly, sometimes of another.
        private func value(for name: String, _ random: inout SeededGenerator) -> JSONValue {
            let posts = wall.posts
            func date(_ date: Date) -> JSONValue { .object(["__type": .string("Date"), "iso": .string(ParseDate.string(from: date))]) }
            func pointer(_ className: String, _ id: String) -> JSONValue {
                .object(["__type": .string("Pointer"), "className": .string(className), "objectId": .string(id)])
            }
            if Int.random(in: 0..<10, using: &random) == 0 {
                return [.string("a"), .number(1), .bool(true), date(Date(timeIntervalSince1970: 1_700_000_000))].randomElement(using: &random)!
            }
            let post = posts.randomElement(using: &random)!
            switch name {
            case "text": return .string(Bool.random(using: &random) ? post.text : WhereMatchAgreementTests.texts.randomElement(using: &random)!)
            case "objectId": return .string(post.objectId)
            case "createdAt", "updatedAt":
                let shift = [0, 0, -0.001, 0.001, -60, 3600].randomElement(using: &random)!
                return date(post.createdAt.addingTimeInterval(shift))
            case "user": return pointer("_User", wall.users.randomElement(using: &random)!.objectId)
            case "parent": return pointer("Posts", (posts.compactMap(\.parent).randomElement(using: &random)) ?? post.objectId)
            case "score", "replyCount": return .number(Double(Int.random(in: -2...2, using: &random)))
            case "removed": return .string(["moderator", "votes", "reports"].randomElement(using: &random)!)
            case "points": return .number([-2, -1, 0, 0.5, 1, 2, 3, 5, 10, 4].randomElement(using: &random)!)
            case "mood", "unknown": return .string(WhereMatchAgreementTests.moods.randomElement(using: &random)!)
            case "seen": return .bool(Bool.random(using: &random))
            case "when":
                let iso = WhereMatchAgreementTests.dates.randomElement(using: &random)!
                return date(ParseDate.date(from: iso)!.addingTimeInterval([0, 0, -0.001, 0.001].randomElement(using: &random)!))
            default: return WhereMatchAgreementTests.tags.randomElement(using: &random)!
            }
        }

        /// `$inQuery` or `$notInQuery` on the author.
        private func userQuery(_ random: inout SeededGenerator) -> JSONValue {
            .object([Bool.random(using: &random) ? "$inQuery" : "$notInQuery": .object(["className": .string("_User"), "where": usersWhere(&random)])])
        }

        /// A where on users: their names, objectIds and dates.
        private func usersWhere(_ random: inout SeededGenerator) -> JSONValue {
            let user = wall.users.randomElement(using: &random)!
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return .object(["username": .string(["alice", "bob", "carol", "Alice"].randomElement(using: &random)!)])
            case 1: return .object(["name": .object(["$regex": .string(["^b", "B", "^A"].randomElement(using: &random)!), "$options": .string("i")])])
            case 2: return .object(["name": Bool.random(using: &random) ? .null : .object(["$exists": .bool(true)])])
            case 3: return .object(["objectId": .object(["$in": .array([.string(user.objectId)])])])
            case 4: return .object(["name": .object(["$lt": .string("a")])])
            default: return .object([:])
            }
        }

        /// A place constraint, or none.
        private static func location(_ random: inout SeededGenerator) -> JSONValue? {
            let latitude = WhereMatchAgreementTests.center.latitude + Double.random(in: -0.015...0.015, using: &random)
            let longitude = WhereMatchAgreementTests.center.longitude + Double.random(in: -0.02...0.02, using: &random)
            let point: JSONValue = .object(["__type": .string("GeoPoint"), "latitude": .number(latitude), "longitude": .number(longitude)])
            let kilometers = Double.random(in: 0.3...2.5, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return .object(["$nearSphere": point])
            case 1: return .object(["$nearSphere": point, "$maxDistanceInKilometers": .number(kilometers)])
            case 2: return .object(["$nearSphere": point, "$maxDistanceInMiles": .number(kilometers / 1.609)])
            case 3: return .object(["$nearSphere": point, "$maxDistanceInRadians": .number(kilometers / 6371)])
            case 4:
                let corner: JSONValue = .object(["__type": .string("GeoPoint"), "latitude": .number(latitude + kilometers / 111),
                                                 "longitude": .number(longitude + kilometers / 88)])
                return .object(["$within": .object(["$box": .array([point, corner])])])
            case 5:
                let ring = (0..<Int.random(in: 3...6, using: &random)).map { index in
                    let angle = Double(index) / 6 * 2 * .pi + Double.random(in: 0...0.5, using: &random)
                    let reach = kilometers * Double.random(in: 0.5...1, using: &random)
                    return JSONValue.array([.number(longitude + cos(angle) * reach / 88), .number(latitude + sin(angle) * reach / 111)])
                }
                return .object(["$geoWithin": .object(["$polygon": .array(ring)])])
            case 6:
                return .object(["$geoWithin": .object(["$centerSphere": .array([.array([.number(longitude), .number(latitude)]),
                                                                                 .number(kilometers / 6371)])])])
            default: return nil
            }
        }
    }
}

private extension JSONValue {
    /// The value as JSONSerialization takes it.
    var foundation: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .number(let number): return number
        case .string(let text): return text
        case .array(let items): return items.map(\.foundation)
        case .object(let members): return members.mapValues(\.foundation)
        }
    }
}
