import ArgumentParser
import WallDomain

struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Link a Facebook account to the account logged in, as another way to log in to it.",
        discussion: """
            Without --token-file or --token-stdin, Facebook's device login gives the token. An anonymous \
            account linked to Facebook is no longer anonymous.

            \(UsageExamples.link)
            """)

    @Flag(help: "Link Facebook (Parse's authData.facebook).")
    var facebook = false
    @OptionGroup var facebookLogin: FacebookLoginOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard facebook else { throw ValidationError("name what to link: --facebook") }
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let wall = try context.openIdentityWall(facebook: true)
        // Not logged in is said before any of Facebook's steps.
        _ = try context.sessions.requireSession(for: wall.identity)
        let (identity, name) = try FacebookSignIn(context: context, wall: wall).identity(facebookLogin)
        let session = try context.withSession(on: wall) { try wall.link(identity, session: $0) }
        try context.sessions.save(session)
        Terminal.note("Linked Facebook\(name.map { " (\($0))" } ?? "") to \(session.user.username).")
    }
}
