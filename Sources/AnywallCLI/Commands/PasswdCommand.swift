import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct PasswdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Set a user's password on the embedded wall.",
        discussion: """
            For authors brought in by 'import' (who have no password yet) and for forgotten passwords. \
            Like 'import', it needs only write access to the wall's file. Open sessions of the user end.

            \(UsageExamples.passwd)
            """)

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let (username, password) = try credentials.read(confirm: true)
        try context.openEmbeddedOnly(for: "passwd").setPassword(username: username, password: password)
        Terminal.note("Password set for \(username).")
    }
}
