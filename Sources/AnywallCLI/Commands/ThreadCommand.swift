import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct ThreadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thread", abstract: "Show a post, then its replies, oldest first.",
        discussion: """
            Whether the thread's text shows is decided by its post: beyond your filter radius, the \
            post and every reply are listed without text or author. A long thread comes a page at a \
            time: --limit and --skip.

            \(UsageExamples.thread)
            """)

    @Argument(help: ArgumentHelp("The objectId of the post (or of one of its replies).", valueName: "POST_ID"))
    var postId: String
    @OptionGroup var location: LocationOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("How many replies at most, 1 to 1000 (default: 100).", valueName: "N"))
    var limit: CheckedArgument<ResultLimit>?
    @Option(parsing: .unconditional, help: ArgumentHelp("How many replies to skip first (default: 0).", valueName: "N"))
    var skip: Int = 0
    @OptionGroup var format: FormatOptions
    @OptionGroup var store: StoreOptions

    /// A page of a thread, unless told otherwise.
    static let defaultLimit = 100

    func validate() throws {
        guard skip >= 0 else { throw ValidationError("--skip must be 0 or more") }
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let preferences = context.preferences()
        let format = try self.format.resolved(preferences)
        let (_, fix) = try location.fix(preferences)
        let radius = try context.filterRadius()
        let wall = try context.openSocialWall(for: "thread")
        let session = try context.sessions.session(for: wall.identity)
        let thread = try wall.thread(postId, skip: skip, limit: try limit?.value().count ?? Self.defaultLimit, session: session)
        let posts = [thread.post] + thread.replies
        let seen = posts.map { NearbyPost($0, inThreadOf: thread.post, from: fix.point, filterRadius: radius) }
        let reader = ReaderPreferences.atStandardOutput(units: try preferences.units, noColorFlag: self.format.noColor,
                                                        environment: context.environment)
        Terminal.output(ResultPrinters.make(format, reader: reader).render(seen))
    }
}
