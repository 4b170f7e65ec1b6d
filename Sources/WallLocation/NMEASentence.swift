import AnywallSupport
import Foundation
import WallDomain

/// What one NMEA 0183 line says about position, if anything.
///
/// Only GGA, RMC, GLL and GNS (positions) and ZDA (the date) from any talker are read. A line is
/// read from its last `$` (ST Teseo receivers print `$$GNRMC`); its checksum must be present and
/// right; proprietary (`$P...`), AIS (`!AIVDM`) and other sentences say nothing. Parsing works on
/// the raw bytes and allocates nothing, so a log is read at the speed of memory.
public enum NMEASentence: Equatable, Sendable {
    /// A position sentence with a valid fix.
    case fix(NMEAFixKind, GeoPoint, timeOfDay: Duration?, date: NMEADate?)
    /// A position sentence that says the receiver has no fix (RMC status V, GGA quality 0...).
    case noFix(NMEAFixKind)
    /// A ZDA sentence: the UTC date and time of day.
    case date(NMEADate, timeOfDay: Duration)

    /// Parses one line without its line ending; nil when it says nothing about position.
    public static func parse(_ line: UnsafeBufferPointer<UInt8>) -> NMEASentence? {
        guard let start = lastDollar(line) else { return nil }
        // `$` + five address characters + `,` + `*hh`: anything shorter is not a sentence.
        guard line.count - start >= 10 else { return nil }
        let kind: SentenceKind
        switch (line[start + 3], line[start + 4], line[start + 5]) {
        case (Byte.G, Byte.G, Byte.A): kind = .gga
        case (Byte.R, Byte.M, Byte.C): kind = .rmc
        case (Byte.G, Byte.L, Byte.L): kind = .gll
        case (Byte.G, Byte.N, Byte.S): kind = .gns
        case (Byte.Z, Byte.D, Byte.A): kind = .zda
        default: return nil
        }
        // A talker is two characters; a `P` there makes it proprietary.
        guard line[start + 1] != Byte.P, line[start + 6] == Byte.comma, let end = checkedBodyEnd(line, from: start) else { return nil }
        var fields = FieldCursor(line, from: start + 7, to: end)
        switch kind {
        case .gga: return parseGGA(&fields)
        case .rmc: return parseRMC(&fields)
        case .gll: return parseGLL(&fields)
        case .gns: return parseGNS(&fields)
        case .zda: return parseZDA(&fields)
        }
    }

    /// Parses one line of text (for tests and callers that have a `String`).
    public static func parse(_ line: String) -> NMEASentence? {
        var line = line
        return line.withUTF8 { parse($0) }
    }

    private enum SentenceKind { case gga, rmc, gll, gns, zda }

    // MARK: Sentences

    // $xxGGA,time,lat,N,lon,E,quality,satellites,hdop,altitude,M,separation,M,age,station
    private static func parseGGA(_ f: inout FieldCursor) -> NMEASentence? {
        let time = f.next(), lat = f.next(), ns = f.next(), lon = f.next(), ew = f.next(), quality = f.next()
        guard let q = unsignedInteger(quality) else { return nil }
        guard q > 0 else { return .noFix(.gga) }
        guard let point = point(lat, ns, lon, ew) else { return nil }
        return .fix(.gga, point, timeOfDay: timeOfDay(time), date: nil)
    }

    // $xxRMC,time,status,lat,N,lon,E,speed,course,date,variation,E,mode,navstatus
    private static func parseRMC(_ f: inout FieldCursor) -> NMEASentence? {
        let time = f.next(), status = f.next(), lat = f.next(), ns = f.next(), lon = f.next(), ew = f.next()
        _ = f.next(); _ = f.next()
        let date = f.next()
        _ = f.next(); _ = f.next()
        let mode = f.next()
        guard status.count == 1 else { return nil }
        guard status.first == Byte.A, mode.first != Byte.N else { return .noFix(.rmc) }
        guard let point = point(lat, ns, lon, ew) else { return nil }
        return .fix(.rmc, point, timeOfDay: timeOfDay(time), date: NMEADate(rmc: date))
    }

    // $xxGLL,lat,N,lon,E,time,status,mode
    private static func parseGLL(_ f: inout FieldCursor) -> NMEASentence? {
        let lat = f.next(), ns = f.next(), lon = f.next(), ew = f.next(), time = f.next(), status = f.next(), mode = f.next()
        guard status.count == 1 else { return nil }
        guard status.first == Byte.A, mode.first != Byte.N else { return .noFix(.gll) }
        guard let point = point(lat, ns, lon, ew) else { return nil }
        return .fix(.gll, point, timeOfDay: timeOfDay(time), date: nil)
    }

    // $xxGNS,time,lat,N,lon,E,mode(one character per constellation),satellites,...
    private static func parseGNS(_ f: inout FieldCursor) -> NMEASentence? {
        let time = f.next(), lat = f.next(), ns = f.next(), lon = f.next(), ew = f.next(), mode = f.next()
        guard !mode.isEmpty else { return nil }
        guard mode.contains(where: { $0 != Byte.N }) else { return .noFix(.gns) }
        guard let point = point(lat, ns, lon, ew) else { return nil }
        return .fix(.gns, point, timeOfDay: timeOfDay(time), date: nil)
    }

    // $xxZDA,time,day,month,year,zone hours,zone minutes
    private static func parseZDA(_ f: inout FieldCursor) -> NMEASentence? {
        let time = f.next(), day = f.next(), month = f.next(), year = f.next()
        guard let tod = timeOfDay(time), year.count == 4, let y = unsignedInteger(year),
              let m = unsignedInteger(month), let d = unsignedInteger(day),
              let date = NMEADate(year: y, month: m, day: d) else { return nil }
        return .date(date, timeOfDay: tod)
    }

    /// Whether `line` is a sentence `parse` reads (GGA, RMC, GLL, GNS, ZDA) but for its checksum,
    /// missing or wrong: dropped all the same, and counted, so a feed without a fix can say why.
    public static func failsChecksum(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = lastDollar(line), line.count - start >= 10 else { return false }
        switch (line[start + 3], line[start + 4], line[start + 5]) {
        case (Byte.G, Byte.G, Byte.A), (Byte.R, Byte.M, Byte.C), (Byte.G, Byte.L, Byte.L), (Byte.G, Byte.N, Byte.S), (Byte.Z, Byte.D, Byte.A):
            return line[start + 1] != Byte.P && line[start + 6] == Byte.comma && checkedBodyEnd(line, from: start) == nil
        default:
            return false
        }
    }

    // MARK: Fields

    /// Where the sentence starts: the last `$` of the line (memchr, which is vectorised, finds
    /// it fastest going forward; a line rarely has more than one).
    private static func lastDollar(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = line.baseAddress else { return nil }
        var found: Int?
        var from = 0
        while from < line.count, let hit = memchr(base + from, Int32(Byte.dollar), line.count - from) {
            let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            found = index
            from = index + 1
        }
        return found
    }

    /// The end of the body (the index of `*`) when the two hex digits after it match the XOR of
    /// the bytes between `$` and `*`; only trailing spaces may follow.
    private static func checkedBodyEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = line.baseAddress, let star = memchr(base + start, Int32(Byte.star), line.count - start) else { return nil }
        let i = base.distance(to: star.assumingMemoryBound(to: UInt8.self))
        // A plain reduction over a buffer, which the compiler vectorises.
        let sum = UnsafeBufferPointer(rebasing: line[(start + 1)..<i]).reduce(UInt8(0), ^)
        guard i + 2 < line.count, let high = hexValue(line[i + 1]), let low = hexValue(line[i + 2]),
              high << 4 | low == sum else { return nil }
        // Spaces and stray carriage returns may trail the checksum (some modems end lines with
        // CR CR LF); gpsd reads such lines, and so does anywall.
        var j = i + 3
        while j < line.count, line[j] == Byte.space || line[j] == Byte.carriageReturn { j += 1 }
        return j == line.count ? i : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case Byte.zero...Byte.nine: return byte - Byte.zero
        case Byte.A...Byte.F: return byte - Byte.A + 10
        case Byte.a...Byte.f: return byte - Byte.a + 10
        default: return nil
        }
    }

    private static func unsignedInteger(_ field: UnsafeBufferPointer<UInt8>.SubSequence) -> Int? {
        guard !field.isEmpty, field.count <= 9 else { return nil }
        var value = 0
        for byte in field {
            guard byte >= Byte.zero, byte <= Byte.nine else { return nil }
            value = value * 10 + Int(byte - Byte.zero)
        }
        return value
    }

    /// `hhmmss` with any decimals, to the nearest millisecond; nil when empty or impossible.
    private static func timeOfDay(_ field: UnsafeBufferPointer<UInt8>.SubSequence) -> Duration? {
        guard field.count >= 6 else { return nil }
        let i = field.startIndex
        guard let hours = unsignedInteger(field[i..<i + 2]), let minutes = unsignedInteger(field[i + 2..<i + 4]),
              let seconds = unsignedInteger(field[i + 4..<i + 6]), hours < 24, minutes < 60, seconds <= 60
        else { return nil }
        var milliseconds = ((hours * 60 + minutes) * 60 + seconds) * 1000
        if field.count > 6 {
            guard field[i + 6] == Byte.dot, let fraction = Decimals(field[(i + 7)...]) else { return nil }
            milliseconds += Int((Double(fraction.mantissa) * 1000 / fraction.scale).rounded())
        }
        return .milliseconds(milliseconds)
    }

    /// Latitude `ddmm.mmmm` and longitude `dddmm.mmmm` with their hemispheres, as decimal degrees.
    private static func point(_ lat: UnsafeBufferPointer<UInt8>.SubSequence, _ ns: UnsafeBufferPointer<UInt8>.SubSequence,
                              _ lon: UnsafeBufferPointer<UInt8>.SubSequence, _ ew: UnsafeBufferPointer<UInt8>.SubSequence) -> GeoPoint? {
        guard ns.count == 1, ew.count == 1, var latitude = degrees(lat), var longitude = degrees(lon) else { return nil }
        switch ns.first {
        case Byte.N: break
        case Byte.S: latitude = -latitude
        default: return nil
        }
        switch ew.first {
        case Byte.E: break
        case Byte.W: longitude = -longitude
        default: return nil
        }
        return try? GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// Degrees and minutes (`dddmm.mmmm`) to degrees. The minutes are read as an exact decimal
    /// (an integer and a power of ten) and divided once, so no rounding of the text creeps in.
    private static func degrees(_ field: UnsafeBufferPointer<UInt8>.SubSequence) -> Double? {
        let dot = field.firstIndex(of: Byte.dot) ?? field.endIndex
        let whole = field[field.startIndex..<dot]
        guard whole.count >= 3, let wholeValue = unsignedInteger(whole) else { return nil }
        let degrees = wholeValue / 100
        var minutes = Decimals(mantissa: UInt64(wholeValue % 100), scale: 1)
        if dot < field.endIndex {
            guard let fraction = Decimals(field[(dot + 1)...]) else { return nil }
            minutes = Decimals(mantissa: minutes.mantissa * UInt64(fraction.scale) + fraction.mantissa, scale: fraction.scale)
        }
        guard minutes.mantissa < 60 * UInt64(minutes.scale) else { return nil }
        return Double(degrees) + Double(minutes.mantissa) / (60 * minutes.scale)
    }

    /// The digits after a decimal point as `mantissa / scale`. Digits past the fourteenth are
    /// below any receiver's precision and are dropped, so the integers stay exact in a Double.
    private struct Decimals {
        var mantissa: UInt64
        var scale: Double

        init(mantissa: UInt64, scale: Double) {
            self.mantissa = mantissa
            self.scale = scale
        }

        init?(_ digits: UnsafeBufferPointer<UInt8>.SubSequence) {
            mantissa = 0
            scale = 1
            for (n, byte) in digits.enumerated() {
                guard byte >= Byte.zero, byte <= Byte.nine else { return nil }
                if n < 14 {
                    mantissa = mantissa * 10 + UInt64(byte - Byte.zero)
                    scale *= 10
                }
            }
        }
    }

    /// Walks the comma-separated fields of a sentence's body in order; past the last field it
    /// yields empty fields, so short sentences read as blanks rather than out of bounds.
    private struct FieldCursor {
        let line: UnsafeBufferPointer<UInt8>
        var position: Int
        let end: Int

        init(_ line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
            self.line = line
            self.position = start
            self.end = end
        }

        @inline(__always)
        mutating func next() -> UnsafeBufferPointer<UInt8>.SubSequence {
            guard position <= end else { return line[end..<end] }
            var i = position
            while i < end, line[i] != Byte.comma { i += 1 }
            let field = line[position..<i]
            position = i + 1
            return field
        }
    }

    private enum Byte {
        static let dollar = UInt8(ascii: "$"), star = UInt8(ascii: "*"), comma = UInt8(ascii: ","),
                   dot = UInt8(ascii: "."), space = UInt8(ascii: " "), carriageReturn = UInt8(ascii: "\r"), zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9"),
                   A = UInt8(ascii: "A"), C = UInt8(ascii: "C"), D = UInt8(ascii: "D"), E = UInt8(ascii: "E"),
                   F = UInt8(ascii: "F"), G = UInt8(ascii: "G"), L = UInt8(ascii: "L"), M = UInt8(ascii: "M"),
                   N = UInt8(ascii: "N"), P = UInt8(ascii: "P"), R = UInt8(ascii: "R"), S = UInt8(ascii: "S"),
                   W = UInt8(ascii: "W"), Z = UInt8(ascii: "Z"), a = UInt8(ascii: "a"), f = UInt8(ascii: "f")
    }
}

/// Which sentence a position came from.
public enum NMEAFixKind: String, Sendable, CaseIterable {
    case gga = "GGA", rmc = "RMC", gll = "GLL", gns = "GNS"
}
