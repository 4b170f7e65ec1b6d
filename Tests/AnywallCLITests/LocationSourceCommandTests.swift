import Foundation
import TestSupport
import Testing

/// Choosing a location source by flag or setting, as `where` shows it.
@Suite("location sources")
struct LocationSourceCommandTests {
    @Test("the location setting takes an NMEA log; where prints the fix with its time once RMC gave the date")
    func nmeaFromSettings() throws {
        let box = try Sandbox()
        let log = box.home.appendingPathComponent("walk.nmea")
        try (NMEATrack.epoch(latitude: 48.1173, longitude: 11.5167, second: 5)).write(to: log, atomically: true, encoding: .utf8)
        #expect(try box.run(["settings", "set", "location", "nmea:\(log.path)"]).status == Exit.success)
        let run = try box.run(["where", "--json"])
        #expect(run.status == Exit.success, "\(run)")
        let fix = run.json as! [String: Any]
        #expect(fix["source"] as? String == "nmea:\(log.path)")
        #expect(fix["time"] as? String == "2026-11-21T10:00:05.000Z")
        #expect(abs(fix["latitude"] as! Double - 48.1173) < 1e-9 && abs(fix["longitude"] as! Double - 11.5167) < 1e-9)
        let readable = try box.run(["where"])
        #expect(readable.stdout.hasPrefix("48.1173") && readable.stdout.contains("nmea:\(log.path)  2026-11-21T10:00:05.000Z"), "\(readable)")
        #expect(try box.run(["settings", "set", "location", "gpsd:localhost:2947"]).status == Exit.success)
        #expect(try box.run(["settings", "show"]).stdout.contains("gpsd:localhost:2947"))
    }

    @Test("NMEA from stdin serves post and nearby too")
    func nmeaOnStdinForOtherCommands() throws {
        let box = try Sandbox()
        try box.signUp("alice")
        let fix = NMEATrack.epoch(latitude: 35.6586, longitude: 139.7454, second: 0)
        let posted = try box.run(["post", "Tokyo Tower", "--nmea", "-"], input: nil)
        #expect(posted.status == Exit.noFix, "post's text is the argument, and stdin is empty: \(posted)")
        let file = box.home.appendingPathComponent("fix.nmea")
        try fix.write(to: file, atomically: true, encoding: .utf8)
        #expect(try box.run(["post", "Tokyo Tower", "--nmea", file.path]).status == Exit.success)
        let near = try box.run(["nearby", "--nmea", "-", "--json"], input: fix).json as! [[String: Any]]
        #expect(near.first?["text"] as? String == "Tokyo Tower" && near.first?["distanceMeters"] as? Double == 0)
    }

    @Test("one LOCATION at a time; a missing log or a bad gpsd address is a clear error")
    func badLocations() throws {
        let box = try Sandbox()
        #expect(try box.run(["where", "--at", "1,1", "--nmea", "-"]).status == Exit.usage)
        let missing = try box.run(["where", "--nmea", "/nonexistent/log"])
        #expect(missing.status == Exit.fileUnreadable && missing.stderr == "anywall: cannot read /nonexistent/log: No such file or directory\n", "\(missing)")
        let bad = try box.run(["where", "--gpsd", "host:99999"])
        #expect(bad.status == Exit.inputRejected && bad.stderr.contains("bad gpsd address 'host:99999'"), "\(bad)")
    }

    @Test("a bare --gpsd means localhost:2947, also before another option")
    func bareGpsd() throws {
        let box = try Sandbox()
        for arguments in [["where", "--gpsd"], ["where", "--gpsd", "--json", "--fix-timeout", "1"]] {
            let run = try box.run(arguments)
            // Nothing listens on this machine's gpsd port in the tests; if a gpsd does, it has no fix.
            #expect(run.status == Exit.unreachable || run.status == Exit.noFix, "\(run)")
            #expect(run.stderr.contains("gpsd at localhost:2947") || run.stderr.contains("gpsd:localhost:2947"), "\(run)")
        }
    }
}
