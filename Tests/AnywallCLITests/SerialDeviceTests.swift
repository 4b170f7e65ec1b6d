import Foundation
import TestSupport
import Testing

/// `--nmea DEVICE --baud N`: a serial receiver, played by a pseudo-terminal.
@Suite("serial NMEA device")
struct SerialDeviceTests {
    @Test("reads fixes from a serial device set to raw mode at the given speed")
    func readsASerialDevice() throws {
        let box = try Sandbox()
        let receiver = try PseudoTerminal()
        let run = try LiveProcess(box, ["where", "--nmea", receiver.devicePath, "--baud", "9600", "--json"])
        // A receiver talks once a second whether anyone listens or not; here, every 50 ms.
        var second = 0
        _ = run.waitUntil(timeout: .seconds(10)) { process in
            receiver.send("$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74\r\n")
            receiver.send(NMEATrack.epoch(latitude: -33.8568, longitude: 151.2153, second: second))
            second += 1
            Thread.sleep(forTimeInterval: 0.05)
            return !process.isRunning
        }
        let end = run.finish()
        #expect(end.status == Exit.success, "\(run.stderr)")
        let fix = try #require(run.jsonLines.first)
        #expect(abs(fix["latitude"] as! Double + 33.8568) < 1e-7 && abs(fix["longitude"] as! Double - 151.2153) < 1e-7)
        #expect(fix["source"] as? String == "nmea:\(receiver.devicePath)")
        #expect((fix["time"] as? String)?.hasPrefix("2026-11-21T10:00:") == true)

        let settings = receiver.settings
        var copy = settings
        #expect(cfgetispeed(&copy) == speed_t(B9600) && cfgetospeed(&copy) == speed_t(B9600))
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO) == 0, "raw mode: no line editing, no echo")
    }

    @Test("a speed a serial port cannot take, or --baud on a plain file, is refused")
    func badBaud() throws {
        let box = try Sandbox()
        let receiver = try PseudoTerminal()
        let odd = try box.run(["where", "--nmea", receiver.devicePath, "--baud", "12345"])
        #expect(odd.status == Exit.inputRejected && odd.stderr.contains("bad baud rate '12345'"), "\(odd)")
        let file = box.home.appendingPathComponent("log.nmea")
        try NMEATrack.epoch(latitude: 1, longitude: 1, second: 0).write(to: file, atomically: true, encoding: .utf8)
        let plain = try box.run(["where", "--nmea", file.path, "--baud", "4800"])
        #expect(plain.status == Exit.inputRejected && plain.stderr.contains("not one"), "\(plain)")
    }

    @Test("while waiting for a fix, a status line on a terminal's stderr, and none when stderr is not a terminal")
    func statusLineOnlyOnATerminal() throws {
        let box = try Sandbox()
        let terminal = try PseudoTerminal()
        let process = Process()
        process.executableURL = Sandbox.binary
        process.arguments = ["where", "--nmea", "-", "--fix-timeout", "1.5"]
        process.environment = box.baseEnvironment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle(fileDescriptor: terminal.device, closeOnDealloc: false)
        process.standardError = FileHandle(fileDescriptor: terminal.device, closeOnDealloc: false)
        try process.runRetryingDescriptorRace()
        process.waitUntilExit()
        let shown = terminal.readAvailable()
        #expect(process.terminationStatus == Exit.noFix)
        #expect(shown.contains("waiting for a location fix from nmea:- (1 s)"), "\(shown.debugDescription)")
        #expect(shown.contains("\r\u{1B}[K"), "the line is rewritten in place and cleared")
        #expect(shown.hasSuffix("anywall: no location fix from nmea:- within 1.5 s\r\n"), "\(shown.debugDescription)")

        let piped = try box.run(["where", "--nmea", "-", "--fix-timeout", "1.5"], input: nil)
        #expect(piped.status == Exit.noFix)
        #expect(piped.stderr == "anywall: no location fix in nmea:-: the input ended without one\n")
    }

    @Test("sentences dropped for their checksum are counted when the input ends without a fix")
    func badChecksums() throws {
        let box = try Sandbox()
        let good = NMEATrack.epoch(latitude: 37.7793, longitude: -122.4193, second: 0)
        // The same sentences with their checksums spoiled, and one with none.
        let spoiled = good.replacingOccurrences(of: #"\*[0-9A-F]{2}"#, with: "*00", options: .regularExpression)
            + "$GPGGA,100000.00,3746.75800000,N,12225.15800000,W,1,08,0.9,35.0,M,40.0,M,,\r\n"
        let run = try box.run(["where", "--nmea", "-"], input: spoiled)
        #expect(run.status == Exit.noFix, "\(run)")
        #expect(run.stderr == "anywall: no location fix in nmea:-: the input ended without one; "
                + "3 sentences were dropped for a missing or wrong checksum\n", "\(run)")
        #expect(try box.run(["where", "--nmea", "-"], input: spoiled + good).status == Exit.success, "a good sentence after them is a fix")
    }
}
