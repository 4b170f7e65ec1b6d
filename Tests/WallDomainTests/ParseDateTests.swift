import AnywallSupport
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

    @Test("Parse's own form reads as Foundation's ISO 8601 parser reads it, to the bit, and anything else as Foundation says")
    func sameAsFoundation() throws {
        let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var generator = SeededGenerator(seed: 37)
        let reference = Int64(Date.timeIntervalBetween1970AndReferenceDate * 1000)
        // Milliseconds since 1970: around 2001's reference date, where the fraction's last bit is
        // most at stake, and over 1900-2200.
        let times = (0..<4_000).map { index -> Int64 in
            index.isMultiple(of: 2) ? Int64.random(in: (reference - 3_000_000_000)...(reference + 3_000_000_000), using: &generator)
                : Int64.random(in: -2_208_988_800_000...7_258_118_399_999, using: &generator)
        }
        for time in times {
            let (seconds, millisecond) = time.quotientAndRemainder(dividingBy: 1000)
            let whole = millisecond < 0 ? (seconds - 1, millisecond + 1000) : (seconds, millisecond)
            var instant = time_t(whole.0)
            var fields = tm()
            gmtime_r(&instant, &fields)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1,
                              Int(fields.tm_mday), Int(fields.tm_hour), Int(fields.tm_min), Int(fields.tm_sec), Int(whole.1))
            let expected = try foundation.parse(text)
            let read = try #require(ParseDate.parseForm(text), "\(text) is Parse's own form")
            #expect(read.timeIntervalSinceReferenceDate.bitPattern == expected.timeIntervalSinceReferenceDate.bitPattern, "\(text)")
        }
        for text in ["2024-02-29T12:00:00.000Z", "2023-02-29T12:00:00.000Z", "2026-04-31T00:00:00.000Z", "2026-13-01T00:00:00.000Z",
                     "2026-11-21T24:00:00.000Z", "2016-12-31T23:59:60.000Z", "1899-12-31T23:59:59.999Z", "2026-11-21T10:00:00Z",
                     "2026-11-21T10:00:00.5Z", "2026-11-21 10:00:00.000Z", "2026-11-2110:00:00.000Z+"] {
            // Only the leap day is Parse's own form as the fast reader takes it: Foundation reads the rest.
            #expect(ParseDate.parseForm(text) == nil || text == "2024-02-29T12:00:00.000Z", "\(text)")
            let expected = (try? foundation.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
            #expect(ParseDate.date(from: text)?.timeIntervalSinceReferenceDate.bitPattern == expected?.timeIntervalSinceReferenceDate.bitPattern,
                    "\(text)")
        }
    }
}
