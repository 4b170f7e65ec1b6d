import AnywallSupport
import Foundation
import WallDomain

/// A UTC calendar date as an NMEA receiver gives it (RMC's `ddmmyy`, ZDA's day, month and year).
public struct NMEADate: Equatable, Sendable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A date, if it is one on the calendar.
    public init?(year: Int, month: Int, day: Int) {
        // Checked by hand rather than through Calendar: this runs for every RMC sentence.
        guard (1980...2179).contains(year), (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// RMC's `ddmmyy`. Two-digit years from 80 are 19xx, the rest 20xx (GPS began in 1980).
    init?(rmc field: UnsafeBufferPointer<UInt8>.SubSequence) {
        guard field.count == 6, field.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        func pair(_ offset: Int) -> Int {
            let i = field.startIndex + offset
            return Int(field[i] - UInt8(ascii: "0")) * 10 + Int(field[i + 1] - UInt8(ascii: "0"))
        }
        let yy = pair(4)
        self.init(year: yy >= 80 ? 1900 + yy : 2000 + yy, month: pair(2), day: pair(0))
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Midnight at the start of this date, UTC.
    public var midnight: Date {
        Calendar.utc.date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// The day after this one.
    public var next: NMEADate {
        let parts = Calendar.utc.dateComponents([.year, .month, .day], from: midnight.addingTimeInterval(86_400))
        return NMEADate(year: parts.year!, month: parts.month!, day: parts.day!) ?? self
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC.
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
