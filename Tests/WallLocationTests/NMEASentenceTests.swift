import Foundation
import TestSupport
import Testing
import WallDomain
import WallLocation

/// Builds a sentence with its checksum, as a receiver would send it.
func nmea(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0), ^)
    return "$" + body + "*" + String(format: "%02X", sum)
}

@Suite struct NMEASentenceTests {
    @Test func ggaGivesDegreesFromDegreesAndMinutes() throws {
        let sentence = NMEASentence.parse(nmea("GPGGA,123519.25,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        guard case .fix(.gga, let point, let time, nil) = sentence else { Issue.record("no fix: \(String(describing: sentence))"); return }
        #expect(point.latitude == 48 + 7.038 / 60)
        #expect(point.longitude == 11 + 31.0 / 60)
        #expect(time == .milliseconds(((12 * 60 + 35) * 60 + 19) * 1000 + 250))
    }

    @Test func southAndWestAreNegative() {
        let sentence = NMEASentence.parse(nmea("GNGLL,3351.6000,S,15112.6000,W,010203.00,A,A"))
        guard case .fix(.gll, let point, _, _) = sentence else { Issue.record("no fix"); return }
        #expect(point.latitude == -(33 + 51.6 / 60))
        #expect(point.longitude == -(151 + 12.6 / 60))
    }

    @Test func highPrecisionMinutesAreReadExactly() {
        // 0.0000001 minute is 0.2 mm: every digit a receiver sends must count.
        let sentence = NMEASentence.parse(nmea("GNGGA,010000.00,4404.13060240,N,12118.84467770,W,4,12,0.5,1000.0,M,-20.0,M,1.0,0000"))
        guard case .fix(_, let point, _, _) = sentence else { Issue.record("no fix"); return }
        #expect(abs(point.latitude - (44 + 4.13060240 / 60)) < 1e-12)
        #expect(abs(point.longitude + (121 + 18.84467770 / 60)) < 1e-12)
    }

    @Test func rmcCarriesItsDate() {
        let sentence = NMEASentence.parse(nmea("GPRMC,225446,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E"))
        guard case .fix(.rmc, _, _, let date) = sentence else { Issue.record("no fix"); return }
        #expect(date == NMEADate(year: 1994, month: 11, day: 19))
    }

    @Test func invalidFixesSayNoFix() {
        #expect(NMEASentence.parse(nmea("GPRMC,225446,V,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E")) == .noFix(.rmc))
        #expect(NMEASentence.parse(nmea("GPGGA,123519,4807.038,N,01131.000,E,0,08,0.9,545.4,M,46.9,M,,")) == .noFix(.gga))
        #expect(NMEASentence.parse(nmea("GPGLL,4916.45,N,12311.12,W,225444,V,N")) == .noFix(.gll))
        #expect(NMEASentence.parse(nmea("GPRMC,225446,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E,N")) == .noFix(.rmc))
        #expect(NMEASentence.parse(nmea("GNGNS,014035.00,4332.69262,S,17235.48549,E,NN,00,99.9,,,,,")) == .noFix(.gns))
    }

    @Test func gnsIsAFixWhenAnyConstellationHasOne() {
        guard case .fix(.gns, _, _, _) = NMEASentence.parse(nmea("GNGNS,014035.00,4332.69262,S,17235.48549,E,NRA,12,0.9,1.0,2.0,,,V")) else {
            Issue.record("no fix"); return
        }
    }

    @Test func anyTalkerIsRead() {
        for talker in ["GP", "GN", "GL", "GA", "GB", "BD", "QZ", "II"] {
            #expect(NMEASentence.parse(nmea("\(talker)GGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")) != nil, "\(talker)")
        }
    }

    @Test func badOrMissingChecksumsAndProprietarySentencesSayNothing() {
        let good = nmea("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        #expect(NMEASentence.parse(String(good.dropLast()) + (good.last == "0" ? "1" : "0")) == nil)
        #expect(NMEASentence.parse(String(good.dropLast(3))) == nil)
        #expect(NMEASentence.parse(nmea("PGRMGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")) == nil)
        #expect(NMEASentence.parse(nmea("PUGGA,123519,4807.038,N,01131.000,E,1,08")) == nil)
        #expect(NMEASentence.parse("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26") == nil)
        #expect(NMEASentence.parse(nmea("GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00")) == nil)
    }

    @Test func aLineIsReadFromItsLastDollar() {
        let good = nmea("GNRMC,225446,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E,A")
        #expect(NMEASentence.parse("$" + good) != nil)
        #expect(NMEASentence.parse("garbage$GPGG" + good) != nil)
    }

    @Test func impossibleCoordinatesAreNotFixes() {
        #expect(NMEASentence.parse(nmea("GPGGA,235946.005,8960.000000,N,00000.000000,E,1,5,,137.000,M,13.000,M,,")) == nil)
        #expect(NMEASentence.parse(nmea("GPGGA,235946.005,9000.0000,N,00000.000000,E,1,5,,137.000,M,13.000,M,,")) == nil)
        #expect(NMEASentence.parse(nmea("GPGGA,235946.005,4807.038,X,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")) == nil)
        #expect(NMEASentence.parse(nmea("GPGGA,235946.005,,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")) == nil)
        #expect(NMEASentence.parse(nmea("GPGGA,235946.005,48a7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")) == nil)
    }

    @Test func zdaGivesTheDate() {
        #expect(NMEASentence.parse(nmea("GPZDA,201530.00,04,07,2002,00,00"))
                == .date(NMEADate(year: 2002, month: 7, day: 4)!, timeOfDay: .seconds(20 * 3600 + 15 * 60 + 30)))
        #expect(NMEASentence.parse(nmea("GPZDA,201530.00,31,02,2002,00,00")) == nil)
    }
}

@Suite struct NMEADecoderTests {
    private let gga = nmea("GPGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    private let rmc = nmea("GPRMC,235958.00,A,4807.038,N,01131.000,E,000.5,054.7,191194,020.3,E")

    private func fixes(_ chunks: [String]) -> [NMEAFix] {
        var decoder = NMEADecoder()
        var fixes: [NMEAFix] = []
        for chunk in chunks {
            var bytes = Array(chunk.utf8)
            bytes.withUnsafeMutableBytes { raw in
                decoder.consume(UnsafeRawBufferPointer(raw)) { if case .fix(let f) = $0 { fixes.append(f) } }
            }
        }
        decoder.finish { if case .fix(let f) = $0 { fixes.append(f) } }
        return fixes
    }

    @Test func crlfLfSplitLinesAndAMissingLastNewlineAllWork() {
        let log = rmc + "\r\n" + gga + "\n" + gga
        let whole = fixes([log])
        #expect(whole.count == 3)
        // Split anywhere, the same fixes come out.
        for cut in stride(from: 1, to: log.utf8.count, by: 7) {
            let bytes = Array(log.utf8)
            let parts = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
            #expect(fixes(parts) == whole, "cut at \(cut)")
        }
    }

    @Test func theDateCarriesOverAndMidnightMovesIt() throws {
        let after = nmea("GPGGA,000001.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        let result = fixes([rmc + "\n", gga + "\n", after + "\n"])
        #expect(result.map(\.time) == [
            ParseDate.date(from: "1994-11-19T23:59:58.000Z"), ParseDate.date(from: "1994-11-19T23:59:59.000Z"),
            ParseDate.date(from: "1994-11-20T00:00:01.000Z"),
        ])
    }

    @Test func withoutADateThereIsOnlyATimeOfDay() {
        let result = fixes([gga + "\n"])
        #expect(result.count == 1)
        #expect(result[0].time == nil)
        #expect(result[0].timeOfDay == .seconds(86_399))
    }

    @Test func anEndlessLineIsDroppedInBoundedMemoryAndReadingGoesOn() {
        let junk = String(repeating: "$GPGGA,1", count: 200_000)
        let result = fixes(Array(repeating: junk, count: 5) + ["\n" + gga + "\n"])
        #expect(result.count == 1)
    }
}
