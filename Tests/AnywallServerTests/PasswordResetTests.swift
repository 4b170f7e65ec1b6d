import Foundation
import TestSupport
import Testing

/// `POST /requestPasswordReset` over HTTP: anywall-server sends no email.
@Suite("anywall-server: password reset requests")
struct PasswordResetTests {
    @Test("answered as Parse Server without an email adapter: 500, code 1, whatever the address; keys still checked")
    func noEmail() throws {
        let server = try WallServer(store: FileManager.default.temporaryDirectory.appendingPathComponent("anywall-reset-\(UUID().uuidString).sqlite"))
        let expected = #"{"code":1,"error":"An appName, publicServerURL, and emailAdapter are required for password reset and email verification functionality."}"#
        for body in [["email": "alice@example.com"], [:], ["email": 5]] as [[String: Any]] {
            let answer = try server.send("POST", "/requestPasswordReset", json: body)
            #expect(answer.status == 500 && answer.text == expected, "\(answer)")
            #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
        }
        let unkeyed = try server.send("POST", "/requestPasswordReset", headers: [:], json: ["email": "alice@example.com"])
        #expect(unkeyed.status == 403 && unkeyed.text == #"{"error":"unauthorized"}"#, "\(unkeyed)")
        #expect(!server.logEvents.contains { $0["event"] as? String == "error" }, "not an error of the server's: \(server.log.suffix(2000))")
        #expect(server.stop() == 0)
    }
}
