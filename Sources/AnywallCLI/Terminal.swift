import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation
import WallMap

/// The process's standard streams, and what kind of thing is on the other end of them.
enum Terminal {
    /// Writes results to stdout. Output that cannot be written (a full disk, a closed stdout)
    /// ends anywall with one line and `ExitStatus.outputFailed`, as a result half-written must
    /// not pass for a whole one.
    /// `done` says what the command did before it printed (`post`: the post was made), so that
    /// nobody does it again because the output was lost.
    static func output(_ text: String, done: String? = nil) {
        do {
            try StandardStream.write(bytes(text), to: STDOUT_FILENO)
        } catch {
            note("anywall: cannot write to standard output: \(error.reason)" + (done.map { "; \($0)" } ?? ""))
            exit(ExitStatus.outputFailed.rawValue)
        }
    }

    /// Writes a line to stderr, for progress, warnings and errors. Control characters are
    /// written as escapes: a message may carry a server's words, which must not steer the terminal.
    static func note(_ line: String) {
        StandardStream.writeError(bytes(inert(line) + "\n"))
    }

    /// The text's UTF-8 bytes, copied from its storage: `Data(text.utf8)` asks at run time whether
    /// the view is contiguous bytes, and the first such question scans the binary's 7,000
    /// conformance records, a tenth of `--version`'s instructions.
    private static func bytes(_ text: String) -> Data {
        var text = text
        return text.withUTF8 { Data(buffer: $0) }
    }

    /// `text` with every control character (escape sequences, carriage returns, line breaks) as
    /// its Swift escape, so that text from a server or a feed prints as what it is.
    static func inert(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: \.isControl) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar.isControl { shown += scalar.escaped(asASCII: true) } else { shown.unicodeScalars.append(scalar) }
        }
        return shown
    }

    /// Writes a warning line to stderr.
    static func warn(_ message: String) {
        note("anywall: warning: \(message)")
    }

    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Colour only on a terminal, and never when `NO_COLOR` is set to anything (no-color.org) or
    /// `--no-color` is given.
    static func useColor(environment: [String: String], noColorFlag: Bool) -> Bool {
        stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && !noColorFlag
    }

    /// The columns readable output wraps to: the terminal's width when stdout is a terminal, else
    /// `COLUMNS` when it holds a positive number, else none (a pipe keeps one row per line).
    static func outputWidth(environment: [String: String]) -> Int? {
        if let size = windowSize() { return size.columns }
        guard let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 else { return nil }
        return columns
    }

    /// The size of the terminal stdout is on; nil when it is not one, or says no width.
    static func windowSize() -> MapSize? {
        guard stdoutIsTerminal else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return MapSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// The most stdin may hold for a post or a password.
    static let inputLimit = 64 * 1024

    /// A message's text: `argument`, or standard input when it is '-' or missing and stdin is
    /// piped; refused when it is missing on a terminal. `what` names the message (`a post`).
    static func messageText(_ argument: String?, holding what: String) throws -> String {
        if let argument, argument != "-" { return argument }
        guard argument == "-" || !stdinIsTerminal else {
            throw ValidationError("give the text as an argument, or '-' to read it from standard input")
        }
        return try readAllInput(holding: what)
    }

    /// Reads all of stdin as text, up to `inputLimit`; `what` names what it should hold, for the refusal.
    static func readAllInput(holding what: String) throws -> String {
        let data = try LineReader.readAll(.standardInput, name: "standard input", limit: inputLimit, holding: what)
        guard let text = String(data: data, encoding: .utf8) else {
            throw AnywallError.inputRejected("standard input is not UTF-8 text")
        }
        return text
    }
}

