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
        discussion: """
            An anonymous account cannot be reached again once logged out: on a terminal, logout asks \
            first; elsewhere it needs --force.

            \(UsageExamples.logout)
            """)

    @Flag(help: "Log out of an anonymous account without asking, losing it.")
    var force = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let wall = try context.openBackendSendingOutbox()
        guard let session = try context.sessions.session(for: wall.identity) else {
            Terminal.note("Not logged in.")
            return
        }
        if session.user.isAnonymous {
            Terminal.warn("\(session.user.username) is an anonymous account: once logged out, nobody can log in to it again "
                          + "(its posts stay); 'anywall signup --username U' keeps it")
            if !force {
                guard Terminal.stdinIsTerminal else {
                    throw ValidationError("logging out loses this anonymous account: give --force to log out anyway")
                }
                guard try Prompt.line("Log out and lose it? [y/N] ").lowercased().hasPrefix("y") else {
                    Terminal.note("Still logged in.")
                    return
                }
            }
        }
        try wall.logOut(session)
        context.sessions.clear()
        Terminal.note("Logged out \(session.user.username).")
    }
}
