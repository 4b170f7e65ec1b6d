import Foundation
import WallDomain

/// A date in a field of Parse's: `{"__type":"Date","iso":"2026-11-21T10:00:00.000Z"}`. The
/// built-in `createdAt` and `updatedAt` are bare ISO strings (`ParseDate`) instead.
public struct ParseDateValue: Equatable, Sendable, ParseCodable {
    public let date: Date

    public init(_ date: Date) {
        self.date = date
    }

    public var json: JSONValue {
        .object(["__type": .string("Date"), "iso": .string(ParseDate.string(from: date))])
    }

    public init(json: JSONValue) throws(ParseError) {
        guard json.isParseType("Date"), let iso = json.fields?["iso"]?.text, let date = ParseDate.date(from: iso) else {
            throw .invalidJSON("bad Date: expected {\"__type\":\"Date\",\"iso\":\"YYYY-MM-DDTHH:MM:SS.sssZ\"}")
        }
        self.init(date)
    }
}
