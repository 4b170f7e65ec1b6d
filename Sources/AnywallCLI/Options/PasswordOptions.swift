import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// Where a password comes from. Never a flag value and never the environment: a prompt
/// without echo on a terminal, else stdin or a file.
struct PasswordOptions: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    @Option(help: ArgumentHelp("Read the password from the first line of a file.", valueName: "PATH"),
            completion: .file())
    var passwordFile: String?

    /// The password; `confirm` asks twice at a prompt (sign-up: "enter the same password twice").
    func read(confirm: Bool) throws -> String {
        if let password = try SecretInput.read("password", stdin: passwordStdin, file: passwordFile, flag: "password") {
            return password
        }
        guard Terminal.stdinIsTerminal else {
            throw ValidationError("no password: use --password-stdin or --password-file when not on a terminal")
        }
        // A mistyped confirmation is asked again, as sign-up forms do; giving up is a Ctrl-C away.
        for attempt in 1...Self.confirmationAttempts {
            let password = try Prompt.secret("Password: ")
            guard confirm, try Prompt.secret("Password (again): ") != password else { return password }
            if attempt < Self.confirmationAttempts { Terminal.note("anywall: the two passwords differ; type them again") }
        }
        throw AnywallError.inputRejected("the two passwords differ, \(Self.confirmationAttempts) times")
    }

    /// How many times a password and its confirmation are asked before sign-up gives up.
    static let confirmationAttempts = 3
}
