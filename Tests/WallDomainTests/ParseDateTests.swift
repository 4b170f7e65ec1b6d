import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("Parse dates")
struct ParseDateTests {
    @Test("every millisecond reads and writes back to the same text, again and again")
    func roundTrip() throws {
        for second in [0, 31, 59] {
            for millisecond in 0..<1000 {
                let text = String(format: "2026-11-22T00:08:%02d.%03dZ", second, millisecond)
                let once = try #require(ParseDate.date(from: text))
                #expect(ParseDate.string(from: once) == text)
                let twice = try #require(ParseDate.date(from: ParseDate.string(from: once)))
                #expect(ParseDate.string(from: twice) == text)
            }
        }
        #expect(ParseDate.string(from: Date(timeIntervalSince1970: 0.0004)) == "1970-01-01T00:00:00.000Z")
        #expect(ParseDate.string(from: Date(timeIntervalSince1970: 0.0006)) == "1970-01-01T00:00:00.001Z")
    }
}
