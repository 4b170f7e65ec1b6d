import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct ReplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply", abstract: "Reply in a post's thread, from near the post.",
        discussion: """
            The text is the argument, or standard input when it is '-' or omitted and piped. You must \
            stand within your filter radius of the thread's post, where its text shows; a reply to a \
            reply is refused (a thread is one level deep). The reply is left where you stand.

            \(UsageExamples.reply)
            """)

    @Argument(help: ArgumentHelp("The objectId of the post to reply to.", valueName: "POST_ID"))
    var postId: String
    @Argument(help: ArgumentHelp("The reply, or '-' to read it from standard input.", valueName: "TEXT"))
    var text: String?
    @OptionGroup var location: LocationOptions
    @OptionGroup var json: JSONOption
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let raw = try Terminal.messageText(text, holding: "a reply")
        let (_, fix) = try location.fix(context.preferences())
        let radius = try context.filterRadius()
        let wall = try context.openSocialWall(for: "reply")
        let reply = try context.withSession(on: wall) { session in
            let text = try PostText.validated(raw, maxCharacters: context.config(for: wall).postMaxCharacterCount)
            return try wall.reply(to: postId, text: text, at: fix.point, radius: radius, session: session)
        }
        let done = "the reply was made (objectId \(reply.objectId)): do not send it again"
        if json.json {
            Terminal.output(JSONText.encode(NearbyPost(reply, from: fix.point, filterRadius: radius)) + "\n", done: done)
        } else {
            Terminal.output(reply.objectId + "\n", done: done)
        }
    }
}
