import Foundation
import Testing
import WallLocation

/// Receivers end lines differently: CR LF, LF, CR CR LF (some modems), spaces before the line
/// feed. gpsd reads them all; so does anywall, through the decoder as a feed delivers them.
@Suite("NMEA line endings")
struct NMEALineEndingTests {
    static let sentence = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"

    @Test("every ending gives the fix", arguments: ["\r\n", "\n", "\r\r\n", "  \r\n", " \r \r\n"])
    func endings(_ ending: String) {
        let reports = NMEADecoder.reports(in: Data((Self.sentence + ending + Self.sentence + ending).utf8))
        let fixes = reports.filter { if case .fix = $0 { return true } else { return false } }
        #expect(fixes.count == 2, "\(reports)")
    }

    @Test("anything else after the checksum is not a sentence")
    func trailingText() {
        #expect(NMEASentence.parse(Self.sentence + "x") == nil)
        #expect(NMEASentence.parse(Self.sentence + " 7") == nil)
    }
}
