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
    @Flag(help: "Log in with Facebook (Parse's authData.facebook): a token given, else Facebook's device login (a code to enter at facebook.com/device).")
    var facebook = false
    @OptionGroup var facebookLogin: FacebookLoginOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if facebook, credentials.username != nil || credentials.password.passwordStdin || credentials.password.passwordFile != nil {
            throw ValidationError("--facebook logs in without a username or password: give one or the other")
        }
        if !facebook, facebookLogin.given {
            throw ValidationError("--token-file, --token-stdin and --json go with --facebook")
        }
    }

    func run() throws {
        let context = try CommandContext(store: store)
        guard facebook else {
            let (username, password) = try credentials.read(confirm: false)
            let wall = try context.openBackendSendingOutbox()
            let session = try wall.logIn(username: username, password: password)
            try context.sessions.save(session)
            Terminal.note("Logged in as \(session.user.username).")
            return
        }
        let wall = try context.openIdentityWall(facebook: true)
        let (identity, name) = try FacebookSignIn(context: context, wall: wall).identity(facebookLogin)
        var (session, created) = try wall.logIn(facebook: identity)
        try context.sessions.save(session)
        // As Anywall does: the name Facebook gives is the one shown as the author.
        if let name { session = try wall.setName(name, session: session) }
        try context.sessions.save(session)
        Terminal.note("\(created ? "Signed up with Facebook and logged in" : "Logged in with Facebook") as \(session.user.displayName).")
    }
}
