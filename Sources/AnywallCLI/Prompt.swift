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
        FileHandle.standardError.write(Data(question.utf8))
        guard let answer = readLine(strippingNewline: true) else {
            throw AnywallError.inputRejected("no answer given")
        }
        return answer
    }

    /// Reads a line with echo off, restoring the terminal afterwards.
    static func secret(_ question: String) throws -> String {
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return try line(question)
    }
}
