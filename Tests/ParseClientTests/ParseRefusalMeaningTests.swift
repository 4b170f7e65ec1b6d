import ParseWire
import Testing
import WallDomain

@testable import ParseClient

/// What a Parse Server's refusal means, decided by its code, status and whether the master key
/// was sent; never by the words of its message.
@Suite("Parse refusals translated")
struct ParseRefusalMeaningTests {
    let wall = "the Parse Server at http://127.0.0.1:1/parse"

    private func meaning(_ code: Int?, _ message: String, status: Int = 400, master: Bool = false) -> AnywallError {
        ParseRefusalMeaning(code: code, message: message, status: status, withMasterKey: master).error(wall: wall)
    }

    @Test("209 is an expired session, whatever the call")
    func expiredSession() {
        #expect(meaning(ParseErrorCode.invalidSessionToken, "Invalid session token") == .sessionExpired)
    }

    @Test("a 403 without a code is the keys, or the master key when one was sent, whatever it says")
    func forbidden() {
        #expect(meaning(nil, "unauthorized", status: 403) == .keysRefused(wall: wall, status: 403))
        #expect(meaning(nil, "Permission denied", status: 403) == .keysRefused(wall: wall, status: 403))
        #expect(meaning(nil, "unauthorized: master key is required", status: 403, master: true)
                == .masterKeyRefused(wall: wall, reason: "unauthorized: master key is required"))
        #expect(meaning(nil, "unauthorized", status: 401) == .keysRefused(wall: wall, status: 401))
    }

    @Test("119 is a forbidden operation (a fresh server's missing class); 200 and 201 refuse the account")
    func codes() {
        #expect(meaning(ParseErrorCode.operationForbidden, "Permission denied") == .operationForbidden(wall: wall, reason: "Permission denied"))
        #expect(meaning(ParseErrorCode.usernameMissing, "bad or missing username") == .accountRefused(wall: wall, reason: "bad or missing username"))
        #expect(meaning(ParseErrorCode.passwordMissing, "password is required") == .accountRefused(wall: wall, reason: "password is required"))
    }

    @Test("any other refusal keeps its message, code and status")
    func otherRefusals() {
        #expect(meaning(ParseErrorCode.invalidQuery, "Invalid parameter for query: radius")
                == .requestRefused(wall: wall, reason: "Invalid parameter for query: radius", code: 102, status: 400))
        #expect(meaning(nil, "Teapot", status: 418) == .requestRefused(wall: wall, reason: "Teapot", code: nil, status: 418))
    }
}
