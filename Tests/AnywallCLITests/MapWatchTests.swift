import Foundation
import Testing
import TestSupport
import WallDomain

/// `nearby --watch --map` in the suite's pseudo-terminal, driven by an NMEA track through a FIFO.
@Suite("nearby --watch --map on a terminal")
struct MapWatchTests {
    static let origin = try! GeoPoint(latitude: 52.5200, longitude: 13.4050)
    static let enter = "\u{1B}[?1049h\u{1B}[?25l", leave = "\u{1B}[?25h\u{1B}[?1049l"

    @Test("alternate screen, frames in place; a walk reveals a post, another process's post appears, resizes redraw, Ctrl-C restores the terminal")
    func watchOnATerminal() throws {
        let box = try Sandbox(.embedded)
        try box.signUp("alice")
        let fountain = try Self.origin.moved(.meters(300), bearing: 0)
        #expect(try box.run(["post", "Meet at the fountain", "--at", "\(fountain.latitude),\(fountain.longitude)"]).status == Exit.success)
        let track = box.home.appendingPathComponent("track.nmea")
        #expect(mkfifo(track.path, 0o600) == 0)
        let terminal = try PseudoTerminal()
        terminal.resize(columns: 80, rows: 24)
        let process = try terminal.start(box, ["nearby", "--watch", "--map", "--nmea", track.path, "--radius", "100m", "--interval", "1s"])
        defer { if process.isRunning { process.terminate() } }
        let writer = try #require(FileHandle(forWritingAtPath: track.path))
        var screen = ""
        /// Waits for `text` in what the terminal received after the first `skipping` characters.
        func waitFor(_ text: String, skipping: Int = 0) -> Bool {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                screen += terminal.readAvailable(timeout: .milliseconds(100))
                if screen.dropFirst(skipping).contains(text) { return true }
            }
            return false
        }
        func walk(to meters: Double, second: Int) throws {
            let here = try Self.origin.moved(.meters(meters), bearing: 0)
            writer.write(Data(NMEATrack.epoch(latitude: here.latitude, longitude: here.longitude, second: second).utf8))
        }

        try walk(to: 0, second: 0)
        #expect(waitFor("Can't view post! Get closer."), "the post 300 m away is drawn hidden: \(screen)")
        #expect(!screen.contains("fountain"))
        for step in 1...6 { try walk(to: Double(step) * 40, second: step) }
        #expect(waitFor("Meet at the fountain"), "within 100 m it is revealed")

        // Beside you (240 m north), within the radius.
        let bread = try Self.origin.moved(.meters(240), bearing: 0).moved(.meters(30), bearing: 90)
        #expect(try box.run(["post", "Fresh bread", "--at", "\(bread.latitude),\(bread.longitude)"]).status == Exit.success)
        #expect(waitFor("Fresh bread"), "another process's post appears within the 1 s interval")

        var before = screen.count
        terminal.resize(columns: 30, rows: 10)
        #expect(waitFor("terminal too small (need 40x12)", skipping: before))
        before = screen.count
        terminal.resize(columns: 60, rows: 20)
        #expect(waitFor("Meet at the fountain", skipping: before), "redrawn at the new size")

        process.interrupt()
        process.waitUntilExit()
        screen += terminal.readAvailable()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
        #expect(screen.hasPrefix(Self.enter), "\(screen.prefix(40).debugDescription)")
        #expect(screen.hasSuffix(Self.leave), "the terminal is left as it was: \(screen.suffix(40).debugDescription)")
        #expect(!screen.contains("\u{1B}[2J"), "never a full clear")
        #expect(screen.contains("\u{1B}[?2026h\u{1B}[H"), "each frame is one synchronized update from the home position")
        try? writer.close()
    }

    @Test("a resize is drawn at once on SIGWINCH: with a fixed place and a 60 s interval nothing else wakes the watch")
    func resizeRedrawsOnSIGWINCH() throws {
        let box = try Sandbox(.embedded)
        let terminal = try PseudoTerminal()
        terminal.resize(columns: 80, rows: 24)
        let process = try terminal.start(box, ["nearby", "--watch", "--map", "--at", "52.52,13.405", "--interval", "60s"])
        defer { if process.isRunning { process.terminate() } }
        var screen = ""
        func waitFor(_ text: String, skipping: Int) -> Bool {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                screen += terminal.readAvailable(timeout: .milliseconds(100))
                if screen.dropFirst(skipping).contains(text) { return true }
            }
            return false
        }
        #expect(waitFor("radius 1 km", skipping: 0), "\(screen.debugDescription)")
        for (columns, rows, expected) in [(30, 10, "terminal too small (need 40x12)"), (60, 20, "radius 1 km")] {
            let before = screen.count
            terminal.resize(columns: columns, rows: rows)
            // The kernel signals the foreground group of the terminal's own session; this process is
            // not in the pseudo-terminal's session, so the test sends the signal as the kernel would.
            kill(process.processIdentifier, SIGWINCH)
            #expect(waitFor(expected, skipping: before), "redrawn at \(columns)x\(rows) well before the next 60 s query")
        }
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
    }

    @Test("SIGTERM also leaves the alternate screen and shows the cursor; a terminal below 40x12 is told so")
    func sigtermRestores() throws {
        let box = try Sandbox(.embedded)
        let terminal = try PseudoTerminal()
        terminal.resize(columns: 30, rows: 10)
        let process = try terminal.start(box, ["nearby", "--watch", "--map", "--at", "52.52,13.405"])
        defer { if process.isRunning { process.terminate() } }
        var screen = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !screen.contains("terminal too small (need 40x12)") {
            screen += terminal.readAvailable(timeout: .milliseconds(100))
        }
        #expect(screen.contains("terminal too small (need 40x12)"), "\(screen.debugDescription)")
        process.terminate()
        process.waitUntilExit()
        screen += terminal.readAvailable()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        #expect(screen.hasPrefix(Self.enter) && screen.hasSuffix(Self.leave), "\(screen.suffix(40).debugDescription)")
    }
}
