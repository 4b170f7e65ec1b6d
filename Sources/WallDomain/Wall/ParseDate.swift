import Foundation

/// Dates as Parse writes them: ISO 8601 in UTC with milliseconds, `2026-11-21T10:00:00.000Z`.
public enum ParseDate {
    private static let withMilliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutMilliseconds = Date.ISO8601FormatStyle()

    /// The date in Parse's form, in UTC with milliseconds.
    public static func string(from date: Date) -> String {
        // The style cuts to whole milliseconds, and a parsed ".582" is a hair under it as a Double:
        // half a millisecond more makes it round, so a date read and written again keeps its text.
        date.addingTimeInterval(0.0005).formatted(withMilliseconds)
    }

    /// Codable's way of writing a date in Parse's form (Foundation's `.iso8601` drops the milliseconds).
    public static var encodingStrategy: JSONEncoder.DateEncodingStrategy {
        .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(string(from: date))
        }
    }

    /// Codable's way of reading a date written either way (files written before kept no milliseconds).
    public static var decodingStrategy: JSONDecoder.DateDecodingStrategy {
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "bad date \(text)")
            }
            return date
        }
    }

    /// Reads an ISO 8601 date with or without fractional seconds; nil if it is not one.
    public static func date(from text: String) -> Date? {
        parseForm(text) ?? (try? withMilliseconds.parse(text)) ?? (try? withoutMilliseconds.parse(text))
    }

    /// The date in Parse's own form (`2026-11-21T10:00:00.000Z`, years 1900 to 2200), without
    /// Foundation's general parser, which took a tenth of an import's instructions; nil for any
    /// other text, left to Foundation. libc's `timegm` does the calendar, and the date is summed as
    /// Foundation's Gregorian calendar sums it (whole days since 2001, then the time of day with its
    /// fraction), so it is the same `Date` to the bit: an imported post without an objectId takes
    /// its id from its date's digits.
    package static func parseForm(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
                  bytes[23] == UInt8(ascii: "Z") else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for byte in bytes[start..<(start + count)] {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0, 4), (1900...2200).contains(year), let month = number(5, 2), let day = number(8, 2),
                  let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                  let millisecond = number(20, 3) else { return nil }
            var fields = tm()
            (fields.tm_year, fields.tm_mon, fields.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
            (fields.tm_hour, fields.tm_min, fields.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
            let seconds = Int(timegm(&fields))
            // timegm carries fields out of range over (February 30 into March): those are Foundation's to judge.
            guard fields.tm_mon == Int32(month - 1), fields.tm_mday == Int32(day), fields.tm_hour == Int32(hour),
                  fields.tm_min == Int32(minute), fields.tm_sec == Int32(second) else { return nil }
            let sinceReference = seconds - Int(Date.timeIntervalBetween1970AndReferenceDate)
            let (days, secondOfDay) = (sinceReference.quotientAndRemainder(dividingBy: 86_400))
            let (wholeDays, timeOfDay) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
            return Date(timeIntervalSinceReferenceDate: Double(wholeDays * 86_400) + (Double(timeOfDay) + Double(millisecond) / 1000))
        }
    }
}
