import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete your own post or reply (moderators: any).",
        discussion: """
            A post goes with its replies, votes and reports.

            \(UsageExamples.delete)
            """)

    @Argument(help: ArgumentHelp("The objectId of the post or reply.", valueName: "POST_ID"))
    var postId: String
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let wall = try context.openSocialWall(for: "delete")
        try context.withSession(on: wall) { session in try wall.delete(postId, session: session) }
        Terminal.note("anywall: deleted \(postId)")
    }
}
