import Foundation
import TestSupport
import Testing

/// Objects as Parse keeps them, over HTTP on every store: fields a client adds, typed by the
/// schema, and Parse Server's words for a value of the wrong type; the update operations; ACLs in
/// every query, count and fetch, returned as sent (none when none was); accounts a user changes
/// or deletes; the config's `Delete`; 209 for an unknown session on every route; and a post the
/// master key leaves without an author.
@Suite("anywall-server: objects, ACLs and accounts as Parse keeps them")
struct ServerObjectTests {
    private static func server() throws -> WallServer {
        try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-obj-\(UUID().uuidString).sqlite"))
    }

    private static func session(_ token: String) -> [String: String] {
        WallServer.keyHeaders.merging(["X-Parse-Session-Token": token]) { $1 }
    }

    private static var point: [String: Any] { ["__type": "GeoPoint", "latitude": 10, "longitude": 20] }
    private static let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }

    private static func refusal(_ answer: WallServer.Answer) -> String {
        "\(answer.status) \(answer.json["code"] as? Int ?? 0) \(answer.json["error"] as? String ?? answer.text)"
    }

    @Test("added fields are kept, returned and typed by the schema; Increment, Delete, Add, AddUnique and Remove; keys with $ or . inside a value refused")
    func fieldsAndOperations() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice")
        let created = try server.send("POST", "/classes/Posts", headers: Self.session(alice.token), json: [
            "text": "counted", "location": Self.point, "likes": 1, "tags": ["a"], "meta": ["k": "v"]])
        #expect(created.status == 201, "\(created)")
        let id = created.json["objectId"] as! String
        let update = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: [
            "likes": ["__op": "Increment", "amount": 2], "tags": ["__op": "AddUnique", "objects": ["a", "b"]],
            "meta": ["__op": "Delete"], "more": ["__op": "Add", "objects": [1, 1]]])
        #expect(update.status == 200 && update.json["updatedAt"] is String, "\(update)")
        var post = try server.send("GET", "/classes/Posts/\(id)").json
        #expect(post["likes"] as? Int == 3 && post["tags"] as? [String] == ["a", "b"] && post["meta"] == nil && post["more"] as? [Int] == [1, 1], "\(post)")
        _ = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: [
            "more": ["__op": "Remove", "objects": [1]], "likes": ["__op": "Increment", "amount": -3]])
        post = try server.send("GET", "/classes/Posts/\(id)").json
        #expect(post["likes"] as? Int == 0 && post["more"] as? [Int] == [], "\(post)")
        let withKeys = try server.send("GET", "/classes/Posts/\(id)", query: ["keys": "likes", "readPreference": "SECONDARY"])
        #expect(withKeys.status == 200 && withKeys.json["likes"] as? Int == 0 && withKeys.json["text"] == nil, "\(withKeys)")
        for parameter in ["limit", "where", "order", "count"] {
            let taken = try server.send("GET", "/classes/Posts/\(id)", query: [parameter: "1"])
            #expect(Self.refusal(taken) == "400 102 Improper encode of parameter", "a fetch takes no \(parameter), as Parse Server")
        }

        let mismatch = try server.send("POST", "/classes/Posts", headers: Self.session(alice.token), json: [
            "text": "typed", "location": Self.point, "likes": "many"])
        #expect(Self.refusal(mismatch) == "400 111 schema mismatch for Posts.likes; expected Number but got String")
        let badIncrement = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: [
            "likes": ["__op": "Increment", "amount": "x"]])
        #expect(Self.refusal(badIncrement) == "400 107 incrementing must provide a number")
        let badAdd = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: ["tags": ["__op": "Add", "objects": 1]])
        #expect(Self.refusal(badAdd) == "400 107 objects to add must be an array")
        let badName = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: ["bad-name": 1])
        #expect(Self.refusal(badName) == "400 105 Invalid field name: bad-name.")
        let secondPoint = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: [
            "home": ["__type": "GeoPoint", "latitude": 1, "longitude": 2]])
        #expect(Self.refusal(secondPoint) == "400 111 there can only be one geopoint field in a class", "Posts' GeoPoint is location")
        let objectId = try server.send("POST", "/classes/Posts", headers: Self.session(alice.token), json: [
            "text": "x", "location": Self.point, "objectId": "mine"])
        #expect(Self.refusal(objectId) == "400 105 objectId is an invalid field name.")
        let relation = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: [
            "likes": ["__op": "AddRelation", "objects": []]])
        #expect(Self.refusal(relation).hasPrefix("400 108 "), "\(relation)")
        let nestedKeys: [(method: String, path: String, fields: [String: Any])] = [
            ("POST", "/classes/Posts", ["text": "x", "location": Self.point, "meta": ["a.b": 1]]),
            ("POST", "/classes/Posts", ["text": "x", "location": Self.point, "meta": ["ok": ["$gt": 1]]]),
            ("PUT", "/classes/Posts/\(id)", ["list": [["ok": ["deeper.still": true]]]]),
            ("PUT", "/classes/Posts/\(id)", ["tags": ["__op": "Add", "objects": [["$where": "1"]]]]),
        ]
        for (method, path, fields) in nestedKeys {
            let refused = try server.send(method, path, headers: Self.session(alice.token), json: fields)
            #expect(Self.refusal(refused) == "400 121 Nested keys should not contain the '$' or '.' characters", "\(method) \(fields)")
        }
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["list"] == nil, "nothing of a refused update was kept")
    }

    @Test("a post only its author may read is in no query, count, fetch or nearest search of anyone else")
    func privatePosts() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice"), bob = try server.signUp("bob")
        let secret = try server.send("POST", "/classes/Posts", headers: Self.session(alice.token), json: [
            "text": "secret", "location": Self.point, "mood": "shy", "ACL": [alice.objectId: ["read": true, "write": true]]])
        let id = secret.json["objectId"] as! String
        _ = try server.post("public", latitude: 10, longitude: 20.001, token: bob.token)
        let near = #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":10,"longitude":20},"$maxDistanceInKilometers":10}}"#
        func texts(_ headers: [String: String], _ query: [String: String]) throws -> [String] {
            let answer = try server.send("GET", "/classes/Posts", query: query, headers: headers)
            return (answer.json["results"] as? [[String: Any]] ?? []).map { $0["text"] as? String ?? "?" }
        }
        for headers in [WallServer.keyHeaders, Self.session(bob.token)] {
            #expect(try texts(headers, [:]) == ["public"])
            #expect(try texts(headers, ["where": near]) == ["public"], "the nearest search skips it")
            #expect(try texts(headers, ["where": #"{"mood":"shy"}"#]).isEmpty)
            #expect(try server.send("GET", "/classes/Posts", query: ["count": "1", "limit": "0"], headers: headers).json["count"] as? Int == 1)
            #expect(try server.send("GET", "/classes/Posts/\(id)", headers: headers).status == 404)
            #expect(try server.send("PUT", "/classes/Posts/\(id)", headers: headers, json: ["text": "seen"]).status == 404)
        }
        #expect(try texts(Self.session(alice.token), ["where": near]) == ["secret", "public"], "its author sees it")
        #expect(try texts(Self.session(alice.token), ["count": "1"]).count == 2)
        let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }
        #expect(try texts(master, ["where": near]) == ["secret", "public"], "the master key sees every post")
        let acl = try server.send("GET", "/classes/Posts/\(id)", headers: Self.session(alice.token)).json["ACL"] as? NSDictionary
        #expect(acl == [alice.objectId: ["read": true, "write": true]] as NSDictionary)
        // Made public by its author, it shows to everyone.
        _ = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: ["ACL": ["*": ["read": true]]])
        #expect(try texts(WallServer.keyHeaders, ["where": near]) == ["secret", "public"])
    }

    @Test("a user changes or deletes their own account; their posts stay without an author; others cannot")
    func accounts() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice"), bob = try server.signUp("bob")
        let post = try server.post("by alice", latitude: 1, longitude: 2, token: alice.token).json["objectId"] as! String
        let other = try server.send("PUT", "/users/\(alice.objectId)", headers: Self.session(bob.token), json: ["name": "Mallory"])
        #expect(Self.refusal(other) == "400 206 Cannot modify user \(alice.objectId).")
        let taken = try server.send("PUT", "/users/\(alice.objectId)", headers: Self.session(alice.token), json: ["username": "BOB"])
        #expect(Self.refusal(taken) == "400 202 Account already exists for this username.")
        let renamed = try server.send("PUT", "/users/\(alice.objectId)", headers: Self.session(alice.token), json: ["name": "Alice A", "password": "new"])
        #expect(renamed.status == 200, "\(renamed)")
        #expect(try server.send("GET", "/users/\(alice.objectId)").json["name"] as? String == "Alice A")
        #expect(try server.send("GET", "/users/me", headers: Self.session(alice.token)).status == 200, "the session that changed the password stays")
        #expect(try server.send("POST", "/login", json: ["username": "alice", "password": "new"]).status == 200)
        #expect(try server.send("DELETE", "/users/\(alice.objectId)", headers: Self.session(bob.token)).status == 404)
        #expect(Self.refusal(try server.send("DELETE", "/users/\(alice.objectId)")) == "400 206 Insufficient auth to delete user", "no session: as Parse Server")
        // The master key on an account that does not exist: not found, never a success that changed nothing.
        let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }
        #expect(Self.refusal(try server.send("PUT", "/users/nobody", headers: master, json: ["name": "x"])) == "404 101 Object not found.")
        #expect(Self.refusal(try server.send("DELETE", "/users/nobody", headers: master)) == "404 101 Object not found.")
        #expect(try server.send("DELETE", "/users/\(alice.objectId)", headers: Self.session(alice.token)).status == 200)
        #expect(try server.send("GET", "/users/\(alice.objectId)").status == 404)
        #expect(try server.send("GET", "/users/me", headers: Self.session(alice.token)).json["code"] as? Int == 209, "its sessions end with it")
        let kept = try server.send("GET", "/classes/Posts/\(post)").json
        #expect(kept["text"] as? String == "by alice" && kept["user"] == nil, "\(kept)")
    }

    @Test("the schemas API with the master key: every class, one class, fields added and deleted")
    func schemas() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice")
        let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }
        _ = try server.send("POST", "/classes/Posts", headers: Self.session(alice.token), json: ["text": "t", "location": Self.point, "mood": "ok"])
        let all = try server.send("GET", "/schemas", headers: master).json["results"] as? [[String: Any]]
        #expect(all?.compactMap { $0["className"] as? String } == ["Posts", "_User"], "\(String(describing: all))")
        let added = try server.send("PUT", "/schemas/Posts", headers: master, json: ["className": "Posts", "fields": ["points": ["type": "Number"]]])
        let fields = added.json["fields"] as? [String: Any]
        #expect((fields?["points"] as? [String: Any])?["type"] as? String == "Number" && (fields?["mood"] as? [String: Any])?["type"] as? String == "String",
                "\(added)")
        let typed = try server.send("POST", "/classes/Posts", headers: Self.session(alice.token), json: ["text": "t", "location": Self.point, "points": "high"])
        #expect(Self.refusal(typed) == "400 111 schema mismatch for Posts.points; expected Number but got String")
        #expect(Self.refusal(try server.send("PUT", "/schemas/Posts", headers: master, json: ["fields": ["mood": ["type": "Number"]]]))
                == "400 255 Field mood exists, cannot update.")
        #expect(Self.refusal(try server.send("PUT", "/schemas/Posts", headers: master, json: ["fields": ["x": ["type": "Nonsense"]]]))
                == "400 111 invalid field type: Nonsense")
        let deleted = try server.send("PUT", "/schemas/Posts", headers: master, json: ["fields": ["mood": ["__op": "Delete"]]])
        #expect((deleted.json["fields"] as? [String: Any])?["mood"] == nil, "\(deleted)")
        let post = (try server.send("GET", "/classes/Posts").json["results"] as? [[String: Any]])?.first
        #expect(post?["mood"] == nil && post?["text"] as? String == "t", "the field's values went with it")
        #expect(Self.refusal(try server.send("PUT", "/schemas/Posts", headers: master, json: ["fields": ["mood": ["__op": "Delete"]]]))
                == "400 255 Field mood does not exist, cannot delete.")
        #expect(Self.refusal(try server.send("PUT", "/schemas/Posts", headers: master, json: ["fields": ["text": ["__op": "Delete"]]]))
                == "400 136 field text cannot be changed")
        let permissions = try #require(try server.send("GET", "/schemas/Posts", headers: master).json["classLevelPermissions"] as? [String: Any])
        #expect(try server.send("PUT", "/schemas/Posts", headers: master, json: ["classLevelPermissions": permissions]).status == 200,
                "the permissions as they are")
        var opened = permissions
        opened["delete"] = ["*": true]
        #expect(Self.refusal(try server.send("PUT", "/schemas/Posts", headers: master, json: ["classLevelPermissions": opened]))
                == "400 119 anywall-server keeps Posts' class-level permissions as GET /schemas/Posts gives them", "refused, not ignored")
        #expect(Self.refusal(try server.send("PUT", "/schemas/Posts", headers: master, json: ["indexes": ["byMood": ["mood": 1]]]))
                == "400 119 anywall-server keeps its own indexes on Posts")
        #expect(Self.refusal(try server.send("GET", "/schemas/Other", headers: master)) == "400 103 Class Other does not exist.")
        #expect(try server.send("GET", "/schemas/_User", headers: master).json["className"] as? String == "_User")
        #expect(try server.send("GET", "/schemas").status == 403, "the master key only")
    }

    @Test("an unknown session token is 209 on every route but POST /login (where Parse Server drops it), never taken as nobody signed in")
    func unknownSession() throws {
        let server = try Self.server()
        let headers = Self.session("r:not-a-session")
        for (method, path) in [("GET", "/classes/Posts"), ("GET", "/classes/Posts/x"), ("POST", "/classes/Posts"), ("GET", "/config"),
                               ("GET", "/users"), ("GET", "/users/me"), ("POST", "/logout"), ("GET", "/schemas/Posts")] {
            let answer = try server.send(method, path, headers: headers, json: method == "GET" ? nil : [:])
            #expect(Self.refusal(answer) == "400 209 Invalid session token", "\(method) \(path): \(answer)")
        }
    }

    @Test("PUT /config removes a parameter set to Delete and keeps the others; masterKeyOnly hides a parameter from all but the master key")
    func configDeleteAndMasterKeyOnly() throws {
        let server = try Self.server()
        let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }
        _ = try server.send("PUT", "/config", headers: master, json: ["params": ["postMaxCharacterCount": 10, "motd": "hi"]])
        let deleted = try server.send("PUT", "/config", headers: master, json: ["params": ["motd": ["__op": "Delete"]]])
        #expect(deleted.status == 200, "\(deleted)")
        let params = try server.send("GET", "/config").json["params"] as? [String: Any]
        #expect(params?["motd"] == nil && params?["postMaxCharacterCount"] as? Int == 10, "\(String(describing: params))")

        _ = try server.send("PUT", "/config", headers: master, json: ["params": ["secretWord": "xyzzy"], "masterKeyOnly": ["secretWord": true]])
        let everyone = try server.send("GET", "/config").json
        #expect((everyone["params"] as? [String: Any])?["secretWord"] == nil, "\(everyone)")
        let keeper = try server.send("GET", "/config", headers: master).json
        #expect((keeper["params"] as? [String: Any])?["secretWord"] as? String == "xyzzy"
                && (keeper["masterKeyOnly"] as? [String: Any])?["secretWord"] as? Bool == true, "\(keeper)")
        // Written again without the mark, it is everyone's, as Parse Server keeps it.
        _ = try server.send("PUT", "/config", headers: master, json: ["params": ["secretWord": "plugh"]])
        #expect((try server.send("GET", "/config").json["params"] as? [String: Any])?["secretWord"] as? String == "plugh")
    }

    @Test("a post saved without an ACL comes back with none, from a fetch and from a find")
    func noACL() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice")
        let id = try #require(try server.post("open", latitude: 10, longitude: 20, token: alice.token).json["objectId"] as? String)
        let fetched = try server.send("GET", "/classes/Posts/\(id)").json
        #expect(fetched["text"] as? String == "open" && fetched["ACL"] == nil, "\(fetched)")
        let found = try #require(try server.send("GET", "/classes/Posts").json["results"] as? [[String: Any]])
        #expect(found.count == 1 && found[0]["ACL"] == nil, "\(found)")
    }

    @Test("an ACL comes back as it was sent, on create and on update; rights sent as false are left out, as Parse leaves them")
    func aclRoundTrip() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice"), bob = try server.signUp("bob")
        let sent: [[String: Any]] = [
            ["*": ["read": true], alice.objectId: ["read": true, "write": true]],
            ["*": ["read": true, "write": true]],
            ["*": ["read": true], alice.objectId: ["write": true]],
            ["*": ["read": true], alice.objectId: ["read": true, "write": true], bob.objectId: ["read": true]],
            [alice.objectId: ["read": true], bob.objectId: ["read": true, "write": true]],
            [alice.objectId: ["read": true, "write": true]],
            [:],
        ]
        for acl in sent {
            let created = try server.post("with an ACL", latitude: 10, longitude: 20, token: alice.token, acl: acl)
            let id = try #require(created.json["objectId"] as? String, "\(created)")
            let fetched = try server.send("GET", "/classes/Posts/\(id)", headers: Self.master).json["ACL"] as? NSDictionary
            #expect(fetched == acl as NSDictionary, "sent \(acl), got \(String(describing: fetched))")
            let found = try server.send("GET", "/classes/Posts", query: ["where": #"{"objectId":"\#(id)"}"#], headers: Self.master)
            #expect((found.json["results"] as? [[String: Any]])?.first?["ACL"] as? NSDictionary == acl as NSDictionary, "\(found)")
        }

        let id = try #require(try server.post("changed", latitude: 10, longitude: 20, token: alice.token).json["objectId"] as? String)
        let changed: [String: Any] = ["*": ["read": true], bob.objectId: ["read": true, "write": true], alice.objectId: ["read": false, "write": true]]
        #expect(try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: ["ACL": changed]).status == 200)
        let kept = try server.send("GET", "/classes/Posts/\(id)", headers: Self.master).json["ACL"] as? NSDictionary
        #expect(kept == ["*": ["read": true], bob.objectId: ["read": true, "write": true], alice.objectId: ["write": true]] as NSDictionary,
                "\(String(describing: kept))")
        // The rights are those sent: alice writes, bob writes, nobody else does.
        #expect(try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(bob.token), json: ["text": "bob's edit"]).status == 200)
        let carol = try server.signUp("carol")
        #expect(try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(carol.token), json: ["text": "carol's"]).status == 404)
        #expect(try server.send("GET", "/classes/Posts/\(id)").json["text"] as? String == "bob's edit")
    }

    @Test("a GeoPoint without its coordinates, and a value of another type than a built-in field's, get Parse Server's words")
    func typeRefusals() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice")
        func create(_ body: [String: Any]) throws -> String {
            Self.refusal(try server.send("POST", "/classes/Posts", headers: Self.session(alice.token), json: body))
        }
        #expect(try create(["text": "t", "location": ["__type": "GeoPoint", "latitude": 10]]) == "400 111 This is not a valid GeoPoint")
        #expect(try create(["text": "t", "location": "here"]) == "400 111 schema mismatch for Posts.location; expected GeoPoint but got String")
        #expect(try create(["text": "t", "location": ["latitude": 10, "longitude": 20]])
                == "400 111 schema mismatch for Posts.location; expected GeoPoint but got Object")
        #expect(try create(["text": 5, "location": Self.point]) == "400 111 schema mismatch for Posts.text; expected String but got Number")
        #expect(try create(["text": "t", "location": Self.point, "user": "alice"])
                == "400 111 schema mismatch for Posts.user; expected Pointer<_User> but got String")
        #expect(try create(["text": "t", "location": Self.point, "when": ["__type": "Date"]]) == "400 111 This is not a valid Date")
        let id = try #require(try server.post("typed", latitude: 10, longitude: 20, token: alice.token).json["objectId"] as? String)
        let edit = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: ["text": ["__op": "Increment", "amount": 1]])
        #expect(Self.refusal(edit) == "400 111 schema mismatch for Posts.text; expected String but got Number")
    }

    @Test("the master key alone leaves a post without an author; a session's post still has its user as author")
    func masterKeyPost() throws {
        let server = try Self.server()
        let alice = try server.signUp("alice")
        let created = try server.send("POST", "/classes/Posts", headers: Self.master, json: ["text": "by nobody", "location": Self.point])
        let id = try #require(created.json["objectId"] as? String, "\(created)")
        #expect(created.status == 201)
        let fetched = try server.send("GET", "/classes/Posts/\(id)", query: ["include": "user"]).json
        #expect(fetched["text"] as? String == "by nobody" && fetched["user"] == nil && fetched["ACL"] == nil, "\(fetched)")
        // Without an ACL it is everyone's: a signed-in user edits it.
        #expect(try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(alice.token), json: ["text": "adopted"]).status == 200)

        let withSession = try server.send("POST", "/classes/Posts", headers: Self.master.merging(["X-Parse-Session-Token": alice.token]) { $1 },
                                          json: ["text": "by alice", "location": Self.point])
        let aliceId = try #require(withSession.json["objectId"] as? String, "\(withSession)")
        let author = try server.send("GET", "/classes/Posts/\(aliceId)").json["user"] as? [String: Any]
        #expect(author?["objectId"] as? String == alice.objectId, "\(String(describing: author))")
        let named = try server.send("POST", "/classes/Posts", headers: Self.session(alice.token), json: [
            "text": "as bob", "location": Self.point, "user": ["__type": "Pointer", "className": "_User", "objectId": "someoneElse"]])
        #expect(Self.refusal(named) == "400 142 a post's user is the user who posts it")
    }
}
