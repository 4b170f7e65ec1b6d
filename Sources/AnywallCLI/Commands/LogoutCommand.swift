import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "End the session on the wall and forget it locally.",
        discussion: UsageExamples.logout)

    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let wall = try context.openBackendSendingOutbox()
        guard let session = try context.sessions.session(for: wall.identity) else {
            Terminal.note("Not logged in.")
            return
        }
        try wall.logOut(session)
        context.sessions.clear()
        Terminal.note("Logged out \(session.user.username).")
    }
}
