import Foundation
import TestSupport
import Testing
import WallDomain
import WallLocation

/// pynmea2 (from PyPI) is an independent NMEA parser: over every fixture log, it and anywall's
/// parser must find the same fixes in the same order (Tests/Scripts/pynmea2_fixes.py applies the
/// same rules on top of pynmea2).
@Suite struct NMEAPynmea2CrossCheckTests {
    static let script = NMEAFixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Scripts/pynmea2_fixes.py")

    @Test func sameFixesInTheSameOrderAsPynmea2() throws {
        let logs = NMEAFixtures.logs
        let output = try Python.run(script: Self.script, logs.map(\.path))
        var reference: [String: [Substring]] = [:]
        var current = ""
        for line in output.split(separator: "\n") {
            if line.hasPrefix("# ") { current = URL(fileURLWithPath: String(line.dropFirst(2))).lastPathComponent; reference[current] = [] }
            else { reference[current, default: []].append(line) }
        }
        #expect(reference.count == logs.count)
        var total = 0
        for log in logs {
            let theirs = reference[log.lastPathComponent] ?? []
            let ours = try NMEAFixtures.fixes(in: log)
            #expect(ours.count == theirs.count, "\(log.lastPathComponent): \(ours.count) fixes, pynmea2 \(theirs.count)")
            for (fix, line) in zip(ours, theirs) {
                let fields = line.split(separator: " ")
                let same = fields.count == 4 && fields[0] == fix.kind.rawValue && Int(fields[1]) == (fix.millisecondOfDay ?? -1)
                    && abs(Double(fields[2])! - fix.point.latitude) < 1e-9 && abs(Double(fields[3])! - fix.point.longitude) < 1e-9
                #expect(same, "\(log.lastPathComponent): anywall \(fix.kind) \(fix.millisecondOfDay ?? -1) \(fix.point), pynmea2 \(line)")
                if !same { break }
            }
            total += ours.count
        }
        #expect(total > 2000)
    }
}
