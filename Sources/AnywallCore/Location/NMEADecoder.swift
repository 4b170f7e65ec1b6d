import Foundation

/// Turns a stream of NMEA bytes, in chunks of any size, into fixes, in bounded memory.
///
/// Lines end with LF or CRLF; a line longer than `maxLineLength` (an NMEA sentence has at most
/// 82 characters) is garbage and dropped whole. The date from RMC or ZDA is carried over to
/// the sentences that have only a time of day, and moved to the next day when the time wraps.
public struct NMEADecoder {
    /// What the feed said, in order.
    public enum Report: Equatable, Sendable {
        case fix(NMEAFix)
        /// A position sentence saying the receiver has no fix.
        case noFix
    }

    public static let maxLineLength = 1024

    private var partial: [UInt8] = []
    private var discarding = false
    private var day: (date: NMEADate, midnight: Date, timeOfDay: Duration)?

    public init() {
        partial.reserveCapacity(Self.maxLineLength)
    }

    /// Reads `bytes`, calling `report` for each position sentence completed by them.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ report: (Report) throws -> Void) rethrows {
        let bytes = bytes.bindMemory(to: UInt8.self)
        var start = 0
        while start < bytes.count {
            guard let found = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) else {
                keepPartial(UnsafeBufferPointer(rebasing: bytes[start...]))
                return
            }
            let newline = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let piece = UnsafeBufferPointer(rebasing: bytes[start..<newline])
            start = newline + 1
            if partial.isEmpty, !discarding {
                try line(piece, report)
            } else {
                keepPartial(piece)
                if !discarding {
                    try partial.withUnsafeBufferPointer { try line($0, report) }
                }
                partial.removeAll(keepingCapacity: true)
                discarding = false
            }
        }
    }

    /// Reads the last line when the input ends without a line ending.
    public mutating func finish(_ report: (Report) throws -> Void) rethrows {
        if !discarding, !partial.isEmpty {
            let last = partial
            try last.withUnsafeBufferPointer { try line($0, report) }
        }
        partial.removeAll(keepingCapacity: true)
        discarding = false
    }

    /// Reads a whole log at once (tests, benchmarks): every report in order.
    public static func reports(in data: Data) -> [Report] {
        var decoder = NMEADecoder()
        var reports: [Report] = []
        data.withUnsafeBytes { decoder.consume($0) { reports.append($0) } }
        decoder.finish { reports.append($0) }
        return reports
    }

    private mutating func keepPartial(_ piece: UnsafeBufferPointer<UInt8>) {
        guard !discarding else { return }
        if partial.count + piece.count > Self.maxLineLength {
            discarding = true
            partial.removeAll(keepingCapacity: true)
        } else {
            partial.append(contentsOf: piece)
        }
    }

    private mutating func line(_ text: UnsafeBufferPointer<UInt8>, _ report: (Report) throws -> Void) rethrows {
        var text = text
        if let last = text.last, last == 0x0D { text = UnsafeBufferPointer(rebasing: text.dropLast()) }
        guard text.count <= Self.maxLineLength, let sentence = NMEASentence.parse(text) else { return }
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
