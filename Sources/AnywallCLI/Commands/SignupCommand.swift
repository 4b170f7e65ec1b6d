import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct SignupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Create an account, then stay logged in.",
        discussion: UsageExamples.signup)

    @OptionGroup var credentials: CredentialOptions
    @Option(help: "The name shown as the author of your posts (default: the username).")
    var name: String?
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let (username, password) = try credentials.read(confirm: true)
        let wall = try context.openBackendSendingOutbox()
        let session = try wall.signUp(username: username, password: password, name: name)
        try context.sessions.save(session)
        Terminal.note("Signed up and logged in as \(session.user.username).")
    }
}
