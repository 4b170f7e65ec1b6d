import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Leave a message where you are.",
        discussion: """
            The text is the argument, or standard input when it is '-' or omitted and piped. \
            On a server that cannot be reached, the post waits in the outbox (and is sent, in order and \
            once, by the next command that reaches the server); --no-queue fails instead.

            \(UsageExamples.post)
            """)

    @Argument(help: ArgumentHelp("The message, or '-' to read it from standard input.", valueName: "TEXT"))
    var text: String?
    @OptionGroup var location: LocationOptions
    @Flag(help: "When the server cannot be reached, fail instead of keeping the post in the outbox.")
    var noQueue = false
    @OptionGroup var json: JSONOption
    @OptionGroup var store: StoreOptions

    /// What `post --json` prints for a post that waits in the outbox.
    private struct Queued: Encodable {
        let queued = true
        let requestId: String
        let text: String
        let location: GeoPoint
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let raw = try Terminal.messageText(text, holding: "a post")
        let (_, fix) = try location.fix(context.preferences())
        let wall = try context.openBackendSendingOutbox()
        let (post, entry) = try context.withSession(on: wall) { session in
            let text = try PostText.validated(raw, maxCharacters: context.config(for: wall).postMaxCharacterCount)
            let entry = OutboxEntry(requestId: UUID().uuidString.lowercased(), backend: wall.identity, user: session.user,
                                    text: text, location: fix.point, queuedAt: Date())
            return (try send(entry, to: wall, session: session, context: context), entry)
        }
        guard let post else {
            if json.json {
                Terminal.output(JSONText.encode(Queued(requestId: entry.requestId, text: entry.text, location: entry.location)) + "\n",
                                done: "the post waits in the outbox (request \(entry.requestId)): do not post it again")
            }
            return
        }
        let done = "the post was made (objectId \(post.objectId)): do not post it again"
        if json.json {
            let view = NearbyPost(post, from: fix.point, filterRadius: FilterRadius.defaultRadius)
            Terminal.output(JSONText.encode(view) + "\n", done: done)
        } else {
            Terminal.output(post.objectId + "\n", done: done)
        }
    }

    /// Sends the post, or queues it (nil) when the server is out of reach or older posts of the
    /// same user still wait, so that posts arrive in the order they were written.
    private func send(_ entry: OutboxEntry, to wall: WallBackend, session: Session, context: CommandContext) throws -> Post? {
        guard wall.isRemote, !noQueue else {
            return try wall.createPost(text: entry.text, at: entry.location, session: session, requestId: entry.requestId)
        }
        let outbox = context.outbox
        let waiting = try OutboxDelivery(outbox: outbox, backend: wall).waiting().contains { $0.user.objectId == entry.user.objectId }
        if !waiting {
            do {
                return try wall.createPost(text: entry.text, at: entry.location, session: session, requestId: entry.requestId)
            } catch let error as AnywallError where error.isOutage {
                try outbox.add(entry)
                Terminal.note("anywall: \(error.wording); the post waits in the outbox and is sent by the next command that reaches the server")
                return nil
            }
        }
        try outbox.add(entry)
        Terminal.note("anywall: earlier posts still wait in the outbox; this one waits behind them")
        return nil
    }
}
