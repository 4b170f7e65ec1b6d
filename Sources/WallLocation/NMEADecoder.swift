import AnywallSupport
import Foundation
import WallDomain

/// Turns a stream of NMEA bytes, in chunks of any size, into fixes, in bounded memory.
///
/// Lines end with LF or CRLF; a line longer than `maxLineLength` (an NMEA sentence has at most
/// 82 characters) is garbage and dropped whole (`LineSplitter`). The date from RMC or ZDA is
/// carried over to the sentences that have only a time of day, and moved to the next day when
/// the time wraps.
public struct NMEADecoder {
    /// What the feed said, in order.
    public enum Report: Equatable, Sendable {
        case fix(NMEAFix)
        /// A position sentence saying the receiver has no fix.
        case noFix
    }

    public static let maxLineLength = 1024

    /// How many sentences with a position or date were dropped for a missing or wrong checksum.
    public private(set) var badChecksums = 0

    private var lines = LineSplitter(maxLineLength: NMEADecoder.maxLineLength)
    private var day: (date: NMEADate, midnight: Date, timeOfDay: Duration)?

    public init() {}

    /// Reads `bytes`, calling `report` for each position sentence completed by them.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ report: (Report) throws -> Void) rethrows {
        var lines = borrowLines()
        defer { self.lines = lines }
        try lines.consume(bytes) { try line($0, report) }
    }

    /// Reads the last line when the input ends without a line ending.
    public mutating func finish(_ report: (Report) throws -> Void) rethrows {
        var lines = borrowLines()
        defer { self.lines = lines }
        try lines.finish { try line($0, report) }
    }

    /// The splitter, moved out (an empty one left in its place) while it runs, since reading a
    /// line updates the date this decoder holds.
    private mutating func borrowLines() -> LineSplitter {
        var lines = LineSplitter(maxLineLength: Self.maxLineLength)
        swap(&lines, &self.lines)
        return lines
    }

    /// Reads a whole log at once (tests, benchmarks): every report in order.
    public static func reports(in data: Data) -> [Report] {
        var decoder = NMEADecoder()
        var reports: [Report] = []
        data.withUnsafeBytes { decoder.consume($0) { reports.append($0) } }
        decoder.finish { reports.append($0) }
        return reports
    }

    private mutating func line(_ text: UnsafeBufferPointer<UInt8>, _ report: (Report) throws -> Void) rethrows {
        guard let sentence = NMEASentence.parse(text) else {
            if NMEASentence.failsChecksum(text) { badChecksums += 1 }
            return
        }
        switch sentence {
        case .fix(let kind, let point, let timeOfDay, let date):
            if let date, let timeOfDay { learn(date, at: timeOfDay) }
            try report(.fix(NMEAFix(kind: kind, point: point, timeOfDay: timeOfDay, time: time(at: timeOfDay))))
        case .noFix:
            try report(.noFix)
        case .date(let date, let timeOfDay):
            learn(date, at: timeOfDay)
        }
    }

    private mutating func learn(_ date: NMEADate, at timeOfDay: Duration) {
        if let day, day.date == date {
            self.day?.timeOfDay = timeOfDay
        } else {
            day = (date, date.midnight, timeOfDay)
        }
    }

    /// The full time of a sentence that has only a time of day, from the last date seen; a time
    /// of day far behind the last one means midnight passed.
    private mutating func time(at timeOfDay: Duration?) -> Date? {
        guard let timeOfDay, var day else { return nil }
        if timeOfDay < day.timeOfDay - .seconds(12 * 3600) {
            day = (day.date.next, day.date.next.midnight, timeOfDay)
        } else {
            day.timeOfDay = timeOfDay
        }
        self.day = day
        let (seconds, attoseconds) = timeOfDay.components
        return day.midnight.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
}
