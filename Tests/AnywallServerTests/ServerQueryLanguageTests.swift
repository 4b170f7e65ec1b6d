import Foundation
import TestSupport
import Testing

/// Parse's query language on Posts and on the public fields of `_User`, over HTTP, with the
/// same expected answers on every store (the suite runs again on PostgreSQL): equality, the
/// comparisons, `$in`, `$exists`, `$regex`, `$or`/`$and`/`$nor`, the sub-queries through `user`,
/// geo operators beside them, order on several keys, and counts.
@Suite("anywall-server: Parse's query language")
struct ServerQueryLanguageTests {
    /// A wall of five posts by alice and bob, with fields the client added.
    struct Wall {
        let server: WallServer
        let alice: (token: String, objectId: String)
        let bob: (token: String, objectId: String)

        init() throws {
            server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-ql-\(UUID().uuidString).sqlite"))
            alice = try server.signUp("alice")
            bob = try server.signUp("bob")
            let posts: [(String, [String: Any], String)] = [
                ("Free coffee", ["points": 5, "mood": "happy", "seen": true, "tags": ["food"],
                                 "when": ["__type": "Date", "iso": "2024-01-01T10:00:00.000Z"]], "alice"),
                ("free parking", ["points": 2, "mood": "calm", "seen": false, "friend": ["__type": "Pointer", "className": "_User", "objectId": bob.objectId]], "alice"),
                // Everyone's to read and write as the others, but by an ACL sent: it comes back with every find.
                ("Lost cat", ["points": 9, "mood": "sad", "when": ["__type": "Date", "iso": "2025-06-01T10:00:00.000Z"],
                              "ACL": ["*": ["read": true, "write": true]]], "bob"),
                ("Street party", ["points": 5, "tags": ["music", "food"]], "bob"),
                ("Quiet corner", [:], "bob"),
            ]
            for (index, (text, fields, author)) in posts.enumerated() {
                var body = fields
                body["text"] = text
                body["location"] = ["__type": "GeoPoint", "latitude": 10 + Double(index) * 0.01, "longitude": 20]
                let answer = try send("POST", "/classes/Posts", as: author == "alice" ? alice.token : bob.token, json: body)
                precondition(answer.status == 201, "\(answer)")
            }
        }

        func send(_ method: String, _ path: String, query: [String: String] = [:], as token: String? = nil, json: Any? = nil) throws -> WallServer.Answer {
            var headers = WallServer.keyHeaders
            if let token { headers["X-Parse-Session-Token"] = token }
            return try server.send(method, path, query: query, headers: headers, json: json)
        }

        /// The texts of the posts `where` finds, in the answer's order (by text when no order is asked).
        func texts(_ whereClause: [String: Any], _ parameters: [String: String] = [:], as token: String? = nil) throws -> [String] {
            let answer = try find(whereClause, parameters, as: token)
            guard answer.status == 200, let results = answer.json["results"] as? [[String: Any]] else { return ["\(answer)"] }
            return results.map { $0["text"] as? String ?? "?" }
        }

        func find(_ whereClause: [String: Any], _ parameters: [String: String] = [:], as token: String? = nil) throws -> WallServer.Answer {
            var query = parameters
            if query["order"] == nil { query["order"] = "text" }
            query["where"] = String(decoding: try JSONSerialization.data(withJSONObject: whereClause), as: UTF8.self)
            return try send("GET", "/classes/Posts", query: query, as: token)
        }

        /// The code and message of a refused find.
        func refusal(_ whereClause: [String: Any], _ parameters: [String: String] = [:]) throws -> String {
            let answer = try find(whereClause, parameters)
            return "\(answer.status) \(answer.json["code"] as? Int ?? 0) \(answer.json["error"] as? String ?? answer.text)"
        }
    }

    private static func date(_ iso: String) -> [String: Any] { ["__type": "Date", "iso": iso] }

    @Test("equality on text, added strings, numbers, booleans, dates, pointers and arrays; $ne, $in, $nin, $exists")
    func equality() throws {
        let wall = try Wall()
        #expect(try wall.texts(["text": "Lost cat"]) == ["Lost cat"])
        #expect(try wall.texts(["text": "lost cat"]).isEmpty, "equality is exact")
        #expect(try wall.texts(["mood": "happy"]) == ["Free coffee"])
        #expect(try wall.texts(["points": 5]) == ["Free coffee", "Street party"])
        #expect(try wall.texts(["seen": false]) == ["free parking"])
        #expect(try wall.texts(["when": Self.date("2025-06-01T10:00:00.000Z")]) == ["Lost cat"])
        #expect(try wall.texts(["friend": ["__type": "Pointer", "className": "_User", "objectId": wall.bob.objectId]]) == ["free parking"])
        #expect(try wall.texts(["user": ["__type": "Pointer", "className": "_User", "objectId": wall.alice.objectId]]) == ["Free coffee", "free parking"])
        #expect(try wall.texts(["points": ["$ne": 5]]) == ["Lost cat", "Quiet corner", "free parking"], "a post without the field is not equal")
        #expect(try wall.texts(["mood": ["$in": ["sad", "calm"]]]) == ["Lost cat", "free parking"])
        #expect(try wall.texts(["mood": ["$nin": ["sad", "calm"]]]) == ["Free coffee", "Quiet corner", "Street party"])
        #expect(try wall.texts(["mood": ["$exists": true]]) == ["Free coffee", "Lost cat", "free parking"])
        #expect(try wall.texts(["mood": ["$exists": false]]) == ["Quiet corner", "Street party"])
        #expect(try wall.texts(["mood": NSNull()]) == ["Quiet corner", "Street party"], "null equals a missing field")
        #expect(try wall.texts(["nothing": "x"]).isEmpty, "a field no post has matches nothing")
        #expect(try wall.texts(["points": "5"]).isEmpty, "a value of another type matches nothing")
        #expect(try wall.texts(["tags": "food"]) == ["Free coffee", "Street party"], "a value on an array field: the arrays that hold it")
        #expect(try wall.texts(["tags": ["$in": ["music", "none"]]]) == ["Street party"])
        #expect(try wall.texts(["tags": ["$ne": "food"]]) == ["Lost cat", "Quiet corner", "free parking"])
    }

    @Test("an added Date is kept in Parse's one form and compares as its instant; $in with null takes a post without the array; an array holds values of their own JSON type; the empty $regex matches all")
    func datesNullsAndArrayTypes() throws {
        let wall = try Wall()
        let noon = try wall.send("POST", "/classes/Posts", as: wall.alice.token, json: [
            "text": "noon in Paris", "location": ["__type": "GeoPoint", "latitude": 10, "longitude": 20],
            "when": Self.date("2024-01-01T12:00:00+01:00"), "tags": [1, "5"]])
        #expect(noon.status == 201, "\(noon)")
        let kept = try wall.send("GET", "/classes/Posts/\(noon.json["objectId"] as? String ?? "?")")
        #expect((kept.json["when"] as? [String: Any])?["iso"] as? String == "2024-01-01T11:00:00.000Z", "\(kept)")
        #expect(try wall.texts(["when": Self.date("2024-01-01T11:00:00.000Z")]) == ["noon in Paris"])
        #expect(try wall.texts(["when": ["$gt": Self.date("2024-01-01T10:30:00.000Z"), "$lt": Self.date("2025-01-01T00:00:00.000Z")]])
                == ["noon in Paris"], "compared as instants, not as the text sent")
        let bad = try wall.send("POST", "/classes/Posts", as: wall.alice.token, json: [
            "text": "bad date", "location": ["__type": "GeoPoint", "latitude": 10, "longitude": 20], "when": Self.date("yesterday")])
        #expect(bad.status == 400 && bad.json["code"] as? Int == 111, "\(bad)")
        #expect(try wall.texts(["tags": ["$in": ["music", NSNull()]]]) == ["Lost cat", "Quiet corner", "Street party", "free parking"])
        #expect(try wall.texts(["tags": true]).isEmpty, "true is not 1")
        #expect(try wall.texts(["tags": 5]).isEmpty, "5 is not \"5\"")
        #expect(try wall.texts(["tags": ["$in": [1, "x"]]]) == ["noon in Paris"])
        #expect(try wall.texts(["text": ["$regex": ""]]).count == 6, "the empty pattern matches every text")
    }

    @Test("$lt, $lte, $gt, $gte on numbers, strings and dates, built-in and added")
    func comparisons() throws {
        let wall = try Wall()
        #expect(try wall.texts(["points": ["$gt": 2, "$lte": 5]]) == ["Free coffee", "Street party"])
        #expect(try wall.texts(["points": ["$lt": 5]]) == ["free parking"])
        #expect(try wall.texts(["points": ["$gte": 9]]) == ["Lost cat"])
        #expect(try wall.texts(["text": ["$gte": "L", "$lt": "S"]]) == ["Lost cat", "Quiet corner"], "strings compare byte by byte")
        #expect(try wall.texts(["when": ["$lt": Self.date("2025-01-01T00:00:00.000Z")]]) == ["Free coffee"])
        #expect(try wall.texts(["createdAt": ["$gt": Self.date("2000-01-01T00:00:00.000Z")]]).count == 5)
        #expect(try wall.texts(["createdAt": ["$lt": Self.date("2000-01-01T00:00:00.000Z")]]).isEmpty)
        #expect(try wall.texts(["updatedAt": ["$gte": "2000-01-01T00:00:00.000Z"]]).count == 5, "an ISO string stands for a date")
    }

    @Test("$regex with $options, bounded in cost")
    func regex() throws {
        let wall = try Wall()
        #expect(try wall.texts(["text": ["$regex": "^free"]]) == ["free parking"])
        #expect(try wall.texts(["text": ["$regex": "^free", "$options": "i"]]) == ["Free coffee", "free parking"])
        #expect(try wall.texts(["text": ["$regex": "c[ao]"]]) == ["Free coffee", "Lost cat", "Quiet corner"])
        #expect(try wall.texts(["mood": ["$regex": "^(h|s)a"]]) == ["Free coffee", "Lost cat"])
        #expect(try wall.refusal(["text": ["$regex": "(a*)*$"]]).hasPrefix("400 102 $regex may not repeat a group that itself repeats"))
        #expect(try wall.refusal(["text": ["$regex": String(repeating: "a", count: 300)]]) == "400 102 $regex is limited to 256 characters")
        #expect(try wall.refusal(["text": ["$regex": "x", "$options": "g"]]) == "400 102 Bad $options value for query: g")
        #expect(try wall.refusal(["text": ["$regex": 5]]) == "400 107 bad regex: 5")
        #expect(try wall.refusal(["text": ["$regex": "[unclosed"]]) == "400 102 $regex is not a regular expression: [unclosed")
    }

    @Test("a $regex whose backtracking explodes on a post is stopped and refused, and the server goes on answering",
          arguments: ["^(a|a)*$", "^(\\w|a)*$", "^a*a*a*a*a*a*a*a*a*a*a*a*$"])
    func explodingRegex(_ pattern: String) throws {
        let wall = try Wall()
        // Swift's Regex took minutes on this text for the first two (exponential in its length).
        let answer = try wall.send("POST", "/classes/Posts", as: wall.alice.token,
                                   json: ["text": String(repeating: "a", count: 40) + "!", "location": ["__type": "GeoPoint", "latitude": 10, "longitude": 20]])
        #expect(answer.status == 201, "\(answer)")
        let refusal = try wall.refusal(["text": ["$regex": pattern]])
        switch TestStore.current {
        case .sqlite:
            #expect(refusal.hasPrefix("400 102 $regex is too costly"), "ICU stops the match: \(pattern): \(refusal)")
        case .postgres:
            // PostgreSQL's engine does not backtrack into these: it answers, with nothing found.
            #expect(refusal == #"200 0 {"results":[]}"#, "\(pattern): \(refusal)")
        }
        #expect(try wall.texts(["text": ["$regex": "^Free"]]) == ["Free coffee"], "and the next find is answered")
    }

    @Test("$or, $and and $nor, nested")
    func logic() throws {
        let wall = try Wall()
        #expect(try wall.texts(["$or": [["mood": "sad"], ["points": 2]]]) == ["Lost cat", "free parking"])
        #expect(try wall.texts(["$and": [["points": ["$gte": 5]], ["tags": ["$exists": true]]]]) == ["Free coffee", "Street party"])
        #expect(try wall.texts(["$nor": [["points": 5], ["mood": "sad"]]]) == ["Quiet corner", "free parking"])
        #expect(try wall.texts(["points": 5, "$or": [["mood": "happy"], ["mood": ["$exists": false]]]]) == ["Free coffee", "Street party"])
    }

    @Test("$inQuery, $notInQuery, $select and $dontSelect through the user pointer")
    func subqueries() throws {
        let wall = try Wall()
        let bobs: [String: Any] = ["where": ["username": "bob"], "className": "_User"]
        #expect(try wall.texts(["user": ["$inQuery": bobs]]) == ["Lost cat", "Quiet corner", "Street party"])
        #expect(try wall.texts(["user": ["$notInQuery": bobs]]) == ["Free coffee", "free parking"])
        let select: [String: Any] = ["query": ["className": "_User", "where": ["username": ["$regex": "^a"]]], "key": "objectId"]
        #expect(try wall.texts(["user": ["$select": select]]) == ["Free coffee", "free parking"])
        #expect(try wall.texts(["user": ["$dontSelect": select], "points": 5]) == ["Street party"])
    }

    @Test("geo operators with the other constraints, count with $nearSphere, order on several keys, keys and excludeKeys")
    func withPlaceAndOrder() throws {
        let wall = try Wall()
        let near: [String: Any] = ["$nearSphere": ["__type": "GeoPoint", "latitude": 10.04, "longitude": 20], "$maxDistanceInKilometers": 100]
        #expect(try wall.texts(["location": near, "points": ["$gte": 5]], ["order": ""]) == ["Street party", "Lost cat", "Free coffee"])
        let counted = try wall.find(["location": near, "user": ["$inQuery": ["where": ["username": "bob"], "className": "_User"]]],
                                    ["count": "1", "limit": "1", "order": ""])
        #expect(counted.json["count"] as? Int == 3 && (counted.json["results"] as? [[String: Any]])?.first?["text"] as? String == "Quiet corner",
                "\(counted)")
        let box: [String: Any] = ["$within": ["$box": [["__type": "GeoPoint", "latitude": 9.9, "longitude": 19.9],
                                                       ["__type": "GeoPoint", "latitude": 10.025, "longitude": 20.1]]]]
        #expect(try wall.texts(["location": box, "mood": ["$exists": true]]) == ["Free coffee", "Lost cat", "free parking"])
        #expect(try wall.texts([:], ["order": "-points,text"]) == ["Lost cat", "Free coffee", "Street party", "free parking", "Quiet corner"],
                "a post without the field comes last in descending order")
        #expect(try wall.texts([:], ["order": "points,-text"]) == ["Quiet corner", "free parking", "Street party", "Free coffee", "Lost cat"])
        #expect(try wall.texts([:], ["order": "nothing,text"]).first == "Free coffee", "a field no post has does not sort")
        // objectId, the dates and the ACL (when the post has one) always come, as Parse Server always selects them.
        let keys = try wall.find(["points": 9], ["keys": "points,mood"])
        #expect(Set(((keys.json["results"] as? [[String: Any]]) ?? [])[0].keys) == ["objectId", "createdAt", "updatedAt", "ACL", "points", "mood"], "\(keys)")
        let excluded = try wall.find(["points": 9], ["excludeKeys": "when,location,ACL,user"])
        #expect(Set(((excluded.json["results"] as? [[String: Any]]) ?? [])[0].keys) == ["objectId", "createdAt", "updatedAt", "ACL", "text", "points", "mood"])
        let authorName = try wall.find(["points": 9], ["keys": "user.username"])
        let post = ((authorName.json["results"] as? [[String: Any]]) ?? [[:]])[0]
        #expect(Set(post.keys) == ["objectId", "createdAt", "updatedAt", "ACL", "user"], "\(authorName)")
        #expect((post["user"] as? [String: Any])?["username"] as? String == "bob", "a key inside the pointer includes its object: \(authorName)")
        let fetched = try wall.find(["mood": "happy"]).json["results"] as? [[String: Any]]
        #expect(fetched?.first?["when"] as? NSDictionary == Self.date("2024-01-01T10:00:00.000Z") as NSDictionary)
        #expect(fetched?.first?["tags"] as? [String] == ["food"])
    }

    @Test("GET /users with a where-clause on the public fields; the same as the _User class, where the SDKs' user queries go",
          arguments: ["/users", "/classes/_User"])
    func users(_ path: String) throws {
        let wall = try Wall()
        let found = try wall.send("GET", path, query: ["where": #"{"username":{"$in":["bob","zed"]}}"#])
        let results = found.json["results"] as? [[String: Any]]
        #expect(results?.map { $0["username"] as? String } == ["bob"], "\(found)")
        #expect(results?.first?["password"] == nil && results?.first?["sessionToken"] == nil, "never a password or a token")
        let counted = try wall.send("GET", path, query: ["count": "1", "limit": "0", "where": #"{"username":{"$regex":"^[ab]"}}"#])
        #expect(counted.json["count"] as? Int == 2, "\(counted)")
        let bob = try wall.send("GET", "\(path)/\(wall.bob.objectId)")
        #expect(bob.status == 200 && bob.json["username"] as? String == "bob" && bob.json["sessionToken"] == nil, "\(bob)")
        let improper = try wall.send("GET", "\(path)/\(wall.bob.objectId)", query: ["where": "{}"])
        #expect(improper.status == 400 && improper.json["code"] as? Int == 102, "a fetch takes no where, as Parse Server: \(improper)")
        let renamed = try wall.send("PUT", "\(path)/\(wall.bob.objectId)", as: wall.bob.token, json: ["name": "Bob B."])
        #expect(renamed.status == 200, "\(renamed)")
        let notYours = try wall.send("PUT", "\(path)/\(wall.bob.objectId)", as: wall.alice.token, json: ["name": "Bobby"])
        #expect(notYours.status == 400 && notYours.json["code"] as? Int == 206, "\(notYours)")
        let signedUp = try wall.send("POST", path, json: ["username": "carol\(path.count)", "password": "pw"])
        #expect(signedUp.status == 201 && signedUp.json["sessionToken"] is String, "\(signedUp)")
    }

    @Test("every refusal with Parse Server's code and message")
    func refusals() throws {
        let wall = try Wall()
        #expect(try wall.refusal(["$or": ["mood": "sad"]]) == "400 102 Bad $or format - use an array value.")
        #expect(try wall.refusal(["$and": 1]) == "400 102 Bad $and format - use an array value.")
        #expect(try wall.refusal(["$nor": []]) == "400 102 Bad $nor format - use an array of at least 1 value.")
        #expect(try wall.refusal(["ACL": "x"]) == "400 102 Cannot query on ACL.")
        #expect(try wall.refusal(["bad-key": 1]) == "400 105 Invalid key name: bad-key")
        #expect(try wall.refusal(["points": ["$in": 5]]) == "400 107 bad $in value")
        #expect(try wall.refusal(["points": ["$nin": "x"]]) == "400 107 bad $nin value")
        #expect(try wall.refusal(["points": ["$near": 5]]) == "400 107 bad constraint: $near")
        #expect(try wall.refusal(["user": ["$inQuery": ["where": [:]]]]) == "400 102 improper usage of $inQuery")
        #expect(try wall.refusal(["user": ["$select": ["query": ["className": "_User"]]]]) == "400 102 improper usage of $select")
        #expect(try wall.refusal(["when": ["__type": "Date"]]) == "400 107 bad atom: {\"__type\":\"Date\"}")
        #expect(try wall.refusal([:], ["order": "bad-key"]) == "400 105 Invalid field name: bad-key.")
        var nested: [String: Any] = ["points": 1]
        for _ in 0..<20 { nested = ["$or": [nested]] }
        #expect(try wall.refusal(nested) == "400 102 anywall-server nests $or, $and, $nor and sub-queries 16 deep at most")
        #expect(try wall.refusal(["points": ["$in": Array(0..<1001)]]) == "400 102 anywall-server takes 1000 values at most in $in")
    }
}
