import Foundation
import TestSupport
import Testing
import WallDomain
import WallLocation

/// gpsd is the oracle: what Debian's gpsd 3.22 reported for each real receiver log must be
/// found by anywall's parser in the same log.
@Suite struct NMEAGpsdOracleTests {
    @Test func theFixturesHoldThousandsOfGpsdFixes() throws {
        #expect(NMEAFixtures.logs.count >= 30)
        let positions = try NMEAFixtures.logs.map { try NMEAFixtures.gpsdPositions(for: $0).count }
        #expect(positions.reduce(0, +) > 3000)
        #expect(positions.filter { $0 == 0 }.count == 3, "eXplorist110, tn200 and ublox-lea-5q never have a fix")
    }

    @Test(arguments: NMEAFixtures.logs.map(\.lastPathComponent))
    func everyGpsdFixIsFoundWithTheSameTimeOfDay(log name: String) throws {
        let log = NMEAFixtures.directory.appendingPathComponent(name)
        let fixes = try NMEAFixtures.fixes(in: log)
        let byTime = Dictionary(grouping: fixes.filter { $0.millisecondOfDay != nil }, by: { $0.millisecondOfDay! })
        let positions = try NMEAFixtures.gpsdPositions(for: log)
        for position in positions {
            let candidates = byTime[position.millisecondOfDay] ?? []
            let match = candidates.contains {
                abs($0.point.latitude - position.latitude) <= 1e-6 && abs($0.point.longitude - position.longitude) <= 1e-6
            }
            #expect(match, "\(name): gpsd's fix at \(position.time) (\(position.latitude), \(position.longitude)) not found; same time: \(candidates.map(\.point))")
        }
        if positions.isEmpty {
            #expect(fixes.isEmpty, "\(name): gpsd never had a fix, the parser found \(fixes.count)")
        }
    }
}
