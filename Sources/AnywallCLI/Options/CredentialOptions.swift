import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// A username and a password: `--username` (else a prompt on a terminal), then the password.
struct CredentialOptions: ParsableArguments {
    @Option(help: "The account's username (prompted on a terminal when omitted).")
    var username: String?
    @OptionGroup var password: PasswordOptions

    /// Both, asked in that order; `confirm` asks for the password twice at a prompt.
    func read(confirm: Bool) throws -> (username: String, password: String) {
        let name: String
        if let username {
            name = username
        } else if Terminal.stdinIsTerminal {
            name = try Prompt.line("Username: ")
        } else {
            throw ValidationError("no username: use --username when not on a terminal")
        }
        return (name, try password.read(confirm: confirm))
    }
}
