import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// A secret (a password, a master key) read from the first line of standard input or of a file:
/// never a flag value, never the environment, so it stays out of shell history and `ps`.
enum SecretInput {
    /// The secret from `--WHAT-stdin` or `--WHAT-file`, nil when neither was given.
    static func read(_ what: String, stdin: Bool, file: String?, flag: String) throws -> String? {
        if stdin && file != nil {
            throw ValidationError("use either --\(flag)-stdin or --\(flag)-file, not both")
        }
        if stdin {
            return try firstLine(of: LineReader.readAll(.standardInput, name: "standard input", limit: Terminal.inputLimit, holding: "a \(what)"),
                                 what: what, from: "standard input")
        }
        if let file {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw AnywallError.fileUnreadable("cannot read the \(what) file \(file)")
            }
            return try firstLine(of: LineReader.readAll(handle, name: file, limit: Terminal.inputLimit, holding: "a \(what)"), what: what, from: file)
        }
        return nil
    }

    private static func firstLine(of data: Data, what: String, from source: String) throws -> String {
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let secret = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        guard !secret.isEmpty else { throw AnywallError.inputRejected("the \(what) from \(source) is empty") }
        return secret
    }
}
