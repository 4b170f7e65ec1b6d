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
        (try? withMilliseconds.parse(text)) ?? (try? withoutMilliseconds.parse(text))
    }
}
