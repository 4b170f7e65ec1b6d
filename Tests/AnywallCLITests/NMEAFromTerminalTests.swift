import Foundation
import TestSupport
import Testing

/// `--nmea -` reads the user's terminal as it is: anywall never puts stdin in raw mode (that is for
/// serial devices), so the terminal keeps its line editing and echo, and Ctrl-D ends the input.
@Suite("NMEA typed or pasted at a terminal")
struct NMEAFromTerminalTests {
    @Test("--nmea - on a terminal reads the pasted fix, and leaves the terminal as it was")
    func terminalKeptCooked() throws {
        let box = try Sandbox()
        try box.signUp("alice")
        #expect(try box.run(["post", "by the river", "--at", "48.85,2.35"]).status == Exit.success)
        let terminal = try PseudoTerminal()
        let before = terminal.settings
        #expect(before.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
        let process = try terminal.start(box, ["nearby", "--nmea", "-", "--fix-timeout", "10", "--radius", "1km"])
        // Pasted, then Ctrl-D: the end of input at a terminal in its usual mode.
        terminal.send(NMEATrack.epoch(latitude: 48.85, longitude: 2.35, second: 0))
        terminal.send("\u{04}")
        var shown = ""
        let deadline = ContinuousClock.now + .seconds(15)
        while process.isRunning, ContinuousClock.now < deadline { shown += terminal.readAvailable(timeout: .milliseconds(50)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        shown += terminal.readAvailable()
        #expect(process.terminationStatus == Exit.success, "\(shown)")
        #expect(shown.contains("by the river"), "\(shown)")
        let after = terminal.settings
        #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag && after.c_oflag == before.c_oflag,
                "the terminal was left changed (raw)")
    }
}
