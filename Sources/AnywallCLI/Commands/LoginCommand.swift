import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in; the session is kept on disk (mode 0600).",
        discussion: UsageExamples.login)

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let (username, password) = try credentials.read(confirm: false)
        let wall = try context.openBackendSendingOutbox()
        let session = try wall.logIn(username: username, password: password)
        try context.sessions.save(session)
        Terminal.note("Logged in as \(session.user.username).")
    }
}
