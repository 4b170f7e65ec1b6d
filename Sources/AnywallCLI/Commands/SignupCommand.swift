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
        discussion: """
            Logged in anonymously, 'signup --username U' gives that account a username and password, \
            keeping its posts, votes and replies.

            \(UsageExamples.signup)
            """)

    @OptionGroup var credentials: CredentialOptions
    @Option(help: "The name shown as the author of your posts (default: the username).")
    var name: String?
    @Flag(help: "Create an account with no username or password (Parse's anonymous user); logging out loses it.")
    var anonymous = false
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if anonymous, credentials.username != nil || credentials.password.passwordStdin || credentials.password.passwordFile != nil || name != nil {
            throw ValidationError("--anonymous takes no username, password or name")
        }
    }

    func run() throws {
        let context = try CommandContext(store: store)
        if anonymous {
            let session = try context.openIdentityWall(facebook: false).signUpAnonymously()
            try context.sessions.save(session)
            Terminal.note("Signed up anonymously: this account lasts as long as this session; "
                          + "'anywall signup --username U' keeps it for good.")
            return
        }
        let (username, password) = try credentials.read(confirm: true)
        let wall = try context.openBackendSendingOutbox()
        if let current = try context.sessions.session(for: wall.identity), current.user.isAnonymous, let identities = wall as? IdentityWall {
            var session = try context.withSession(on: wall) { try identities.convert($0, username: username, password: password) }
            try context.sessions.save(session)
            if let name { session = try identities.setName(name, session: session) }
            try context.sessions.save(session)
            Terminal.note("Signed up as \(session.user.username), keeping the anonymous account's posts, votes and replies.")
            return
        }
        let session = try wall.signUp(username: username, password: password, name: name)
        try context.sessions.save(session)
        Terminal.note("Signed up and logged in as \(session.user.username).")
    }
}
