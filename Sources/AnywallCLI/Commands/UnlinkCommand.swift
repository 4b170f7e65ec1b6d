import ArgumentParser
import WallDomain

struct UnlinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink", abstract: "Unlink Facebook from the account logged in.",
        discussion: """
            Refused when Facebook is the account's last way to log in: give it a username and password first.

            \(UsageExamples.unlink)
            """)

    @Flag(help: "Unlink Facebook (Parse's authData.facebook).")
    var facebook = false
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard facebook else { throw ValidationError("name what to unlink: --facebook") }
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let wall = try context.openIdentityWall(facebook: false)
        let session = try context.withSession(on: wall) { try wall.unlinkFacebook(session: $0) }
        try context.sessions.save(session)
        Terminal.note("Unlinked Facebook from \(session.user.username).")
    }
}
