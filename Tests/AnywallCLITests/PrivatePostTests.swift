import Foundation
import TestSupport
import Testing

/// A post its author alone may read (saved through the server by another Parse client, with an
/// ACL naming only its author) is never shown by `anywall nearby` to anyone else: not in a
/// listing, not as a change, not while watching. (`nearby` reads what everyone may read, so its
/// cached answers and change state never depend on who is logged in: docs/decisions.md.)
@Suite("posts their ACL keeps from the reader")
struct PrivatePostTests {
    @Test("nearby, --changes and --watch never show another's private post")
    func privatePostHidden() throws {
        let box = try Sandbox()
        let server = try WallServer(store: box.home.appendingPathComponent("server-wall.sqlite"))
        let environment = Sandbox.parseEnvironment(server.parseURL)
        #expect(try box.run(["signup", "--username", "bob", "--password-stdin"], input: "pw-bob\n", environment: environment).status == Exit.success)
        let alice = try server.signUp("alice")
        let point: [String: Any] = ["__type": "GeoPoint", "latitude": 10, "longitude": 10]
        let headers = WallServer.keyHeaders.merging(["X-Parse-Session-Token": alice.token]) { $1 }
        let secret = try server.send("POST", "/classes/Posts", headers: headers, json: [
            "text": "alice's secret", "location": point, "ACL": [alice.objectId: ["read": true, "write": true]]])
        #expect(secret.status == 201, "\(secret)")
        #expect(try box.run(["post", "bob's note", "--at", "10,10.001"], environment: environment).status == Exit.success)

        let listing = try box.run(["nearby", "--at", "10,10", "--json"], environment: environment)
        let texts = (Self.posts(listing.stdout)).map { $0["text"] as? String }
        #expect(texts == ["bob's note"], "\(listing)")
        let changes = try box.run(["nearby", "--changes", "--ndjson", "--at", "10,10"], environment: environment)
        #expect(changes.status == Exit.success && !changes.stdout.contains("secret") && changes.stdout.contains("bob's note"), "\(changes)")

        let watch = try LiveProcess(box, ["nearby", "--watch", "--at", "10,10", "--ndjson", "--interval", "1"], environment: environment)
        #expect(watch.waitUntil { $0.lines.contains { $0.contains("bob's note") } })
        // A second private post while watching: still nothing of alice's.
        _ = try server.send("POST", "/classes/Posts", headers: headers, json: [
            "text": "alice's second secret", "location": point, "ACL": [alice.objectId: ["read": true]]])
        _ = try server.post("public news", latitude: 10, longitude: 10.002, token: alice.token)
        #expect(watch.waitUntil { $0.lines.contains { $0.contains("public news") } }, "a public post appears within an interval")
        watch.signal(SIGTERM)
        _ = watch.finish(timeout: .seconds(5))
        #expect(!watch.lines.contains { $0.contains("secret") }, "\(watch.lines)")
    }

    /// The posts of a `--json` listing; none when it is not one.
    private static func posts(_ output: String) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [[String: Any]] ?? []
    }
}
