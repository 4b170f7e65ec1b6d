import Foundation
import TestSupport
import Testing

/// Parse's Roles API on anywall-server: roles made and changed with the master key, their users
/// through `AddRelation`/`RemoveRelation` and found with `$relatedTo`, and ACLs naming a role.
@Suite("anywall-server: roles, their users, and ACLs that name them")
struct ServerRoleTests {
    private let file = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-roles-\(UUID().uuidString).sqlite")
    private static let master = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }

    private static func session(_ token: String) -> [String: String] {
        WallServer.keyHeaders.merging(["X-Parse-Session-Token": token]) { $1 }
    }

    private static func users(_ ids: [String], _ operation: String = "AddRelation") -> [String: Any] {
        ["__op": operation, "objects": ids.map { ["__type": "Pointer", "className": "_User", "objectId": $0] }]
    }

    private static func refusal(_ answer: WallServer.Answer) -> String {
        "\(answer.status) \(answer.json["code"] as? Int ?? 0) \(answer.json["error"] as? String ?? answer.text)"
    }

    private static func members(_ server: WallServer, of role: String) throws -> [String] {
        let related = #"{"$relatedTo":{"object":{"__type":"Pointer","className":"_Role","objectId":"\#(role)"},"key":"users"}}"#
        let found = try server.send("GET", "/users", query: ["where": related])
        return (found.json["results"] as? [[String: Any]] ?? []).compactMap { $0["username"] as? String }.sorted()
    }

    @Test("a role made with the master key holds users; ACLs naming it let them read and write, and no one else")
    func rolesInACLs() throws {
        let server = try WallServer(store: file)
        let alice = try server.signUp("alice"), bob = try server.signUp("bob"), carol = try server.signUp("carol")
        let made = try server.send("POST", "/roles", headers: Self.master,
                                   json: ["name": "moderators", "ACL": ["*": ["read": true]], "users": Self.users([bob.objectId])])
        #expect(made.status == 201 && (made.headers["location"] ?? "").hasSuffix("/parse/roles/\(made.json["objectId"] as? String ?? "?")"), "\(made)")
        let role = made.json["objectId"] as! String
        let found = try server.send("GET", "/roles", query: ["where": #"{"name":"moderators"}"#])
        let listed = (found.json["results"] as? [[String: Any]])?.first
        #expect(listed?["objectId"] as? String == role && (listed?["users"] as? [String: Any])?["__type"] as? String == "Relation", "\(found)")
        #expect(try Self.members(server, of: role) == ["bob"])

        let post = try server.post("for moderators", latitude: 10, longitude: 20, token: alice.token,
                                   acl: [alice.objectId: ["read": true, "write": true], "role:moderators": ["read": true, "write": true]])
        #expect(post.status == 201, "\(post)")
        let id = post.json["objectId"] as! String
        #expect(try server.send("GET", "/classes/Posts/\(id)", headers: Self.session(bob.token)).status == 200, "bob holds the role")
        #expect(try server.send("GET", "/classes/Posts/\(id)", headers: Self.session(carol.token)).status == 404, "carol does not")
        let near = #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":10,"longitude":20}}}"#
        let asBob = try server.send("GET", "/classes/Posts", query: ["where": near], headers: Self.session(bob.token))
        #expect((asBob.json["results"] as? [Any])?.count == 1, "the nearest search reads by role too: \(asBob)")
        let byText = try server.send("GET", "/classes/Posts", query: ["where": #"{"text":"for moderators"}"#], headers: Self.session(carol.token))
        #expect((byText.json["results"] as? [Any])?.isEmpty == true, "\(byText)")
        let edited = try server.send("PUT", "/classes/Posts/\(id)", headers: Self.session(bob.token), json: ["text": "edited by a moderator"])
        #expect(edited.status == 200, "the role writes too: \(edited)")

        let swapped = try server.send("PUT", "/roles/\(role)", headers: Self.master,
                                      json: ["users": ["__op": "Batch", "ops": [Self.users([carol.objectId]), Self.users([bob.objectId], "RemoveRelation")]]])
        #expect(swapped.status == 200, "\(swapped)")
        #expect(try Self.members(server, of: role) == ["carol"])
        #expect(try server.send("GET", "/classes/Posts/\(id)", headers: Self.session(bob.token)).status == 404)
        #expect(try server.send("GET", "/classes/Posts/\(id)", headers: Self.session(carol.token)).status == 200)
    }

    @Test("worst inputs: without the master key, a taken name, a bad name, no ACL, a role within a role or itself, a relation to a deleted user")
    func refusals() throws {
        let server = try WallServer(store: file)
        let alice = try server.signUp("alice"), gone = try server.signUp("gone")
        let first = try server.send("POST", "/roles", headers: Self.master, json: ["name": "moderators", "ACL": ["*": ["read": true]]])
        let role = first.json["objectId"] as! String
        let cases: [(headers: [String: String], body: [String: Any], refusal: String)] = [
            (Self.session(alice.token), ["name": "mine", "ACL": ["*": ["read": true]]], "403 0 unauthorized: master key is required"),
            (Self.master, ["name": "moderators", "ACL": ["*": ["read": true]]], "400 137 A duplicate value for a field with unique values was provided"),
            (Self.master, ["name": "no spaces", "ACL": ["*": ["read": true]]],
             "400 139 A role's name can only contain alphanumeric characters, _ and - here (no spaces)."),
            (Self.master, ["ACL": ["*": ["read": true]]], "400 111 name is required."),
            (Self.master, ["name": "open"], "400 111 ACL is required."),
            (Self.master, ["name": "nested", "ACL": ["*": ["read": true]], "roles": ["__op": "AddRelation", "objects": [
                ["__type": "Pointer", "className": "_Role", "objectId": role]]]],
             "400 108 anywall-server keeps no roles within roles: a role holds users only"),
        ]
        for (headers, body, refusal) in cases {
            #expect(Self.refusal(try server.send("POST", "/roles", headers: headers, json: body)) == refusal, "\(body)")
        }
        let itself = try server.send("PUT", "/roles/\(role)", headers: Self.master,
                                     json: ["roles": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_Role", "objectId": role]]]])
        #expect(Self.refusal(itself) == "400 108 anywall-server keeps no roles within roles: a role holds users only")
        let renamed = try server.send("PUT", "/roles/\(role)", headers: Self.master, json: ["name": "other"])
        #expect(Self.refusal(renamed) == "400 139 A role's name can only be set before it has been saved.")

        #expect(try server.send("DELETE", "/users/\(gone.objectId)", headers: Self.session(gone.token)).status == 200)
        let added = try server.send("PUT", "/roles/\(role)", headers: Self.master, json: ["users": Self.users([alice.objectId, gone.objectId])])
        #expect(added.status == 200, "\(added)")
        #expect(try Self.members(server, of: role) == ["alice"], "a relation to a deleted user names no one")
        // A user's sub-query can only nest on through $or: 50 levels of it inside $inQuery.
        let deepUsers = (0..<50).reduce(#"{"username":"alice"}"#) { inner, _ in #"{"$or":[\#(inner)]}"# }
        let nested = try server.send("GET", "/classes/Posts", query: ["where": #"{"user":{"$inQuery":{"where":\#(deepUsers),"className":"_User"}}}"#])
        #expect(Self.refusal(nested) == "400 102 anywall-server nests $or, $and, $nor and sub-queries 16 deep at most", "$inQuery 50 deep")
        #expect(try server.send("DELETE", "/roles/\(role)", headers: Self.master).status == 200)
        #expect(try server.send("GET", "/roles/\(role)").status == 404)
    }
}
