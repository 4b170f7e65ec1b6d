import Foundation
import TestSupport
import Testing

/// Ctrl-C at a password prompt ends the command and gives the terminal its echo back.
@Suite("Password prompt interrupted")
struct PromptInterruptTests {
    @Test("SIGINT while the password is asked restores echo, and the command ends by the signal", arguments: [SIGINT, SIGTERM])
    func interrupted(_ signal: Int32) throws {
        let box = try Sandbox()
        let terminal = try PseudoTerminal()
        let before = terminal.settings
        #expect(before.c_lflag & tcflag_t(ECHO) != 0)
        let process = try terminal.start(box, ["login", "--username", "alice"])
        var shown = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while !shown.contains("assword"), ContinuousClock.now < deadline { shown += terminal.readAvailable(timeout: .milliseconds(50)) }
        #expect(shown.contains("assword"), "no prompt: \(shown)")
        // Asked: echo is off now.
        #expect(terminal.settings.c_lflag & tcflag_t(ECHO) == 0)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
        #expect(terminal.settings.c_lflag & tcflag_t(ECHO) != 0, "the terminal was left without echo")
    }
}
