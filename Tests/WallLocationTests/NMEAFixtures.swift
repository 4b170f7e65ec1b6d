import Foundation
import TestSupport
import WallDomain
import WallLocation

/// The real receiver logs under `fixtures/nmea/` (from gpsd's regression suite), with gpsd's own
/// reports for each beside it (`NAME.log.chk`).
enum NMEAFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures/nmea")

    /// Every log, by name, sorted.
    static var logs: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The fixes anywall's decoder reads from a log, in order.
    static func fixes(in log: URL) throws -> [NMEAFix] {
        NMEADecoder.reports(in: try Data(contentsOf: log)).compactMap {
            if case .fix(let fix) = $0 { return fix }
            return nil
        }
    }

    /// A TPV report with a position that gpsd gave for a log.
    struct GPSDPosition {
        let time: String
        let latitude: Double
        let longitude: Double

        /// Milliseconds since midnight, from gpsd's ISO 8601 time.
        var millisecondOfDay: Int {
            let clock = time.split(separator: "T")[1].dropLast()  // HH:MM:SS.sss
            let parts = clock.split(separator: ":")
            let seconds = Double(parts[2])!
            return (Int(parts[0])! * 3600 + Int(parts[1])! * 60) * 1000 + Int((seconds * 1000).rounded())
        }
    }

    /// gpsd's TPV reports with mode >= 2 and a time, from the log's `.chk`.
    static func gpsdPositions(for log: URL) throws -> [GPSDPosition] {
        let text = try String(contentsOf: URL(fileURLWithPath: log.path + ".chk"), encoding: .isoLatin1)
        struct TPV: Decodable {
            let `class`: String
            let mode: Int?
            let time: String?
            let lat: Double?
            let lon: Double?
        }
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("{\"class\":\"TPV\""),
                  let tpv = try? JSONDecoder().decode(TPV.self, from: Data(line.utf8)),
                  let mode = tpv.mode, mode >= 2, let time = tpv.time, let lat = tpv.lat, let lon = tpv.lon else { return nil }
            return GPSDPosition(time: time, latitude: lat, longitude: lon)
        }
    }
}

extension NMEAFix {
    /// The time of day in whole milliseconds, as the tests compare it.
    var millisecondOfDay: Int? {
        timeOfDay.map { Int($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) }
    }
}
