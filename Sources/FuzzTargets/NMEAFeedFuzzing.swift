import Foundation
import WallLocation

/// An NMEA feed in pieces of any size, as a serial line delivers it; every fix that comes out
/// must be a valid position.
enum NMEAFeedFuzzing {
    static func run(_ input: [UInt8]) {
        var decoder = NMEADecoder()
        // The first byte picks where the feed is cut, so that lines split across reads are tried.
        let cut = input.isEmpty ? 0 : Int(input[0]) % max(input.count, 1)
        let check: (NMEADecoder.Report) -> Void = { report in
            if case .fix(let fix) = report {
                precondition(abs(fix.point.latitude) < 90 && abs(fix.point.longitude) < 180, "a fix out of range: \(fix)")
            }
        }
        input[..<cut].withUnsafeBytes { decoder.consume($0, check) }
        input[cut...].withUnsafeBytes { decoder.consume($0, check) }
        decoder.finish(check)
        _ = NMEASentence.parse(String(decoding: input, as: UTF8.self))
    }
}
