import AnywallServer
import Foundation
import TestSupport
import Testing

/// Parse Server's guards, against the real binary: the master key only from `--master-key-ips`,
/// and the password gate before sign-ups and log-ins.
@Suite("anywall-server: the master key's addresses and the password gate")
struct ServerGuardTests {
    private static func store() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("anywall-guard-\(UUID().uuidString).sqlite")
    }

    private static let masterHeaders = WallServer.keyHeaders.merging(["X-Parse-Master-Key": Sandbox.masterKey]) { $1 }

    @Test("the master key from loopback works by default; from outside --master-key-ips it is 403 and logged")
    func masterKeyAddresses() throws {
        let loopback = try WallServer(store: Self.store())
        #expect(try loopback.send("PUT", "/config", headers: Self.masterHeaders, json: ["params": ["a": 1]]).status == 200)
        #expect(loopback.stop() == 0)

        let elsewhere = try WallServer(store: Self.store(), arguments: ["--master-key-ips", "10.0.0.0/8, 192.168.1.7"])
        let refused = try elsewhere.send("PUT", "/config", headers: Self.masterHeaders, json: ["params": ["a": 1]])
        #expect(refused.status == 403 && refused.text == "{\"error\":\"unauthorized\"}", "\(refused)")
        #expect(try elsewhere.send("GET", "/classes/Posts").status == 200)
        #expect(elsewhere.logEvents.contains { ($0["error"] as? String)?.contains("'127.0.0.1' is not set") == true }, "\(elsewhere.log)")
        #expect(elsewhere.stop() == 0)

        let fromEnvironment = try WallServer(store: Self.store(), environment: ["PARSE_SERVER_MASTER_KEY_IPS": "127.0.0.0/8"])
        #expect(try fromEnvironment.send("PUT", "/config", headers: Self.masterHeaders, json: ["params": ["a": 1]]).status == 200)
        #expect(fromEnvironment.stop() == 0)
    }

    @Test("a list that is not addresses is a usage error that names the entry")
    func badAddressList() throws {
        let failure = #expect(throws: HelperFailure.self) { try WallServer(store: Self.store(), arguments: ["--master-key-ips", "127.0.0.1,localhost"]) }
        #expect(failure?.description.contains("(exit 64)") == true && failure?.description.contains("'localhost' is not an address") == true,
                "\(String(describing: failure))")
    }

    @Test("addresses, networks, IPv6 and IPv4 mapped into IPv6", arguments: [
        ("127.0.0.1,::1", "127.0.0.1", true), ("127.0.0.1,::1", "::1", true), ("127.0.0.1,::1", "::ffff:127.0.0.1", true),
        ("127.0.0.1,::1", "127.0.0.2", false), ("127.0.0.1,::1", "10.1.2.3", false), ("10.0.0.0/8", "10.255.0.1", true),
        ("10.0.0.0/8", "11.0.0.1", false), ("192.168.1.0/25", "192.168.1.127", true), ("192.168.1.0/25", "192.168.1.128", false),
        ("0.0.0.0/0,::/0", "203.0.113.9", true), ("0.0.0.0/0,::/0", "2001:db8::1", true), ("2001:db8::/32", "2001:db9::1", false),
        ("127.0.0.1", "not an address", false),
    ])
    func addressMatching(list: String, address: String, allowed: Bool) throws {
        #expect(try AddressList(parsing: list).allows(address) == allowed)
    }

    @Test("a client is counted by its IPv4 address, or by the /64 an IPv6 host may speak from any address of")
    func clientsCounted() {
        #expect(AddressList.client("2001:db8:1:2::1") == AddressList.client("2001:db8:1:2:ffff:ffff:ffff:fffe"))
        #expect(AddressList.client("2001:db8:1:2::1") != AddressList.client("2001:db8:1:3::1"))
        #expect(AddressList.client("203.0.113.9") == "203.0.113.9")
        #expect(AddressList.client("203.0.113.9") != AddressList.client("203.0.113.10"))
        #expect(AddressList.client("unknown") == "unknown")
    }

    @Test("entries that are no address or network are refused", arguments: ["", "localhost", "10.0.0.0/33", "::/129", "1.2.3.4/-1", "1.2.3"])
    func invalidEntries(list: String) {
        #expect(throws: InvalidAddressList.self) { try AddressList(parsing: list) }
    }

    @Test("past --password-attempts from one address, sign-ups get Parse's rate-limit answer without hashing")
    func attemptsPerAddress() throws {
        let server = try WallServer(store: Self.store(), arguments: ["--password-attempts", "3"])
        for n in 1...3 { _ = try server.signUp("user\(n)") }
        let refused = try server.send("POST", "/users", json: ["username": "user4", "password": "pw"])
        #expect(refused.status == 429 && refused.json["code"] as? Int == 100, "\(refused)")
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1, "\(refused.headers)")
        #expect(server.stop() == 0)
    }

    @Test("after 5 failed log-ins a username waits, even with the right password; others do not")
    func failuresPerUsername() throws {
        let server = try WallServer(store: Self.store())
        _ = try server.signUp("alice", password: "right")
        _ = try server.signUp("bob", password: "right")
        for _ in 1...5 {
            #expect(try server.send("POST", "/login", json: ["username": "alice", "password": "wrong"]).status == 404)
        }
        let waiting = try server.send("POST", "/login", json: ["username": "alice", "password": "right"])
        #expect(waiting.status == 429 && waiting.json["code"] as? Int == 100, "\(waiting)")
        #expect(try server.send("POST", "/login", json: ["username": "bob", "password": "right"]).status == 200)
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try server.send("POST", "/login", json: ["username": "alice", "password": "right"]).status == 200)
        #expect(server.stop() == 0)
    }
}
