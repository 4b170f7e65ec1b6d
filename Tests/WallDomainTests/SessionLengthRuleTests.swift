import Foundation
import Testing
import WallDomain

/// When a session ends, the one rule both server stores and the embedded wall apply.
@Suite("SessionLength")
struct SessionLengthRuleTests {
    @Test("a session ends its length after it began; the oldest open one began its length before now")
    func bounds() {
        let length = SessionLength(.seconds(3_600))
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(length.end(ofSessionStartedAt: start) == Date(timeIntervalSince1970: 1_800_003_600))
        #expect(length.oldestOpenStart(at: start) == Date(timeIntervalSince1970: 1_799_996_400))
    }
}
