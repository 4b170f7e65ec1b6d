import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// Questions asked on the terminal (stderr for the question, stdin for the answer).
enum Prompt {
    /// Reads a line with echo.
    static func line(_ question: String) throws -> String {
        StandardStream.writeError(Data(question.utf8))
        guard let answer = readLine(strippingNewline: true) else {
            throw AnywallError.inputRejected("no answer given")
        }
        return answer
    }

    /// The terminal's settings while a secret is asked: what a Ctrl-C puts back.
    nonisolated(unsafe) private static var beforeSecret = termios()

    /// Reads a line with echo off, restoring the terminal afterwards, on Ctrl-C and Ctrl-\ too
    /// (the signal then ends the process as it would have).
    static func secret(_ question: String) throws -> String {
        tcgetattr(STDIN_FILENO, &beforeSecret)
        var silent = beforeSecret
        silent.c_lflag &= ~tcflag_t(ECHO)
        let restore: @convention(c) (Int32) -> Void = { signal in
            tcsetattr(STDIN_FILENO, TCSANOW, &Prompt.beforeSecret)
            _ = write(STDERR_FILENO, "\n", 1)
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        let previous = [SIGINT, SIGTERM, SIGQUIT, SIGHUP].map { ($0, signal($0, restore)) }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &beforeSecret)
            for (number, handler) in previous { signal(number, handler) }
            StandardStream.writeError(Data("\n".utf8))
        }
        return try line(question)
    }
}
