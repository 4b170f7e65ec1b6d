import Foundation
import TestSupport
import Testing

/// A thread read as a Parse client reads it from anywall-server: its replies by `parent`, a page
/// at a time, with the thread's post included (`include=parent`) where the reader may read it.
@Suite("anywall-server: threads, paged, with include=parent")
struct ServerThreadTests {
    private static func session(_ token: String) -> [String: String] {
        WallServer.keyHeaders.merging(["X-Parse-Session-Token": token]) { $1 }
    }

    @Test("replies come a page at a time, each with its thread's post whole (and its author with parent.user); keys leave it out")
    func includeParent() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-thread-\(UUID().uuidString).sqlite"))
        let alice = try server.signUp("alice"), bob = try server.signUp("bob")
        let thread = try server.post("a thread", latitude: 10, longitude: 20, token: alice.token).json["objectId"] as! String
        for index in 0..<5 {
            let reply = try server.send("POST", "/classes/Posts", headers: Self.session(bob.token), json: [
                "text": "reply \(index)", "location": ["__type": "GeoPoint", "latitude": 10, "longitude": 20],
                "parent": ["__type": "Pointer", "className": "Posts", "objectId": thread]])
            #expect(reply.status == 201, "\(reply)")
        }
        let byParent = #"{"parent":{"__type":"Pointer","className":"Posts","objectId":"\#(thread)"}}"#
        let page = try server.send("GET", "/classes/Posts", query: ["where": byParent, "order": "createdAt", "skip": "2", "limit": "2",
                                                                     "include": "parent.user"])
        let results = page.json["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["text"] as? String } == ["reply 2", "reply 3"], "\(page)")
        let parent = results.first?["parent"] as? [String: Any]
        #expect(parent?["__type"] as? String == "Object" && parent?["className"] as? String == "Posts" && parent?["text"] as? String == "a thread"
                && parent?["replyCount"] as? Int == 5 && (parent?["user"] as? [String: Any])?["username"] as? String == "alice", "\(results)")
        let pointers = try server.send("GET", "/classes/Posts", query: ["where": byParent, "limit": "1"])
        #expect(((pointers.json["results"] as? [[String: Any]])?.first?["parent"] as? [String: Any])?["__type"] as? String == "Pointer")
        let picked = try server.send("GET", "/classes/Posts", query: ["where": byParent, "limit": "1", "keys": "text", "include": "parent"])
        #expect(((picked.json["results"] as? [[String: Any]])?.first)?["parent"] == nil, "keys without parent: \(picked)")
    }
}
