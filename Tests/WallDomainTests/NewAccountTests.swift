import Testing
import WallDomain

/// The sign-up rules every wall applies before a store keeps an account.
@Suite("NewAccount")
struct NewAccountTests {
    @Test("the username trimmed, the password kept as typed, an empty name as none")
    func accepted() throws {
        let account = try NewAccount(username: "  alice ", password: " pw ", name: "")
        #expect(account.username == "alice" && account.password == " pw " && account.name == nil)
    }

    @Test("an empty username, an empty password, a name with a control character: refused, checked in that order",
          arguments: [("", "", "Al"), ("alice", "", "Al\u{1B}"), ("alice", "pw", "Al\u{1B}")])
    func refused(username: String, password: String, name: String) {
        let reason: String
        do {
            _ = try NewAccount(username: username, password: password, name: name)
            reason = "accepted"
        } catch let error as AnywallError {
            reason = error.reason
        } catch {
            reason = "\(error)"
        }
        let expected = username.isEmpty ? "the username is empty" : password.isEmpty ? "the password is empty" : "bad name: no control characters (escape sequences, line breaks)"
        #expect(reason == expected)
    }
}
