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

            With --watch, prints the post and its replies as 'added' events, then keeps running and \
            prints each new reply as 'added' as it comes, a deleted one as 'removed' and one whose score \
            or text changed as 'changed' (readable lines, or with --ndjson one JSON object per line, as \
            'nearby --watch'). On anywall-server, and on a Parse Server whose LiveQuery server the \
            'live-query-url' setting (or PARSE_LIVE_QUERY_URL) names, it subscribes to the thread's \
            replies over LiveQuery; otherwise it asks the wall again every --interval, and says so once \
            on stderr.

            \(UsageExamples.thread)
            """)

    @Argument(help: ArgumentHelp("The objectId of the post (or of one of its replies).", valueName: "POST_ID"))
    var postId: String
    @OptionGroup var location: LocationOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("How many replies at most, 1 to 1000 (default: 100).", valueName: "N"))
    var limit: CheckedArgument<ResultLimit>?
    @Option(parsing: .unconditional, help: ArgumentHelp("How many replies to skip first (default: 0).", valueName: "N"))
    var skip: Int = 0
    @OptionGroup var follow: FollowOptions
    @OptionGroup var format: FormatOptions
    @OptionGroup var store: StoreOptions

    /// A page of a thread, unless told otherwise.
    static let defaultLimit = 100

    func validate() throws {
        guard skip >= 0 else { throw ValidationError("--skip must be 0 or more") }
        try follow.validate(format)
        if follow.watch, skip > 0 || limit != nil { throw ValidationError("--watch follows the whole thread: --skip and --limit do not apply") }
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let preferences = context.preferences()
        let format = try self.format.resolved(preferences)
        let (_, fix) = try location.fix(preferences)
        let radius = try context.filterRadius()
        let wall = try context.openSocialWall(for: "thread")
        let session = try context.sessions.session(for: wall.identity)
        let reader = ReaderPreferences.atStandardOutput(units: try preferences.units, noColorFlag: self.format.noColor,
                                                        environment: context.environment)
        if follow.watch {
            try watch(wall, session: session, from: fix.point, filterRadius: radius, context: context,
                      printer: format == .table ? EventLinePrinter(reader: reader) : NDJSONPrinter())
            return
        }
        let thread = try wall.thread(postId, skip: skip, limit: try limit?.value().count ?? Self.defaultLimit, session: session)
        let posts = [thread.post] + thread.replies
        let seen = posts.map { NearbyPost($0, inThreadOf: thread.post, from: fix.point, filterRadius: radius) }
        Terminal.output(ResultPrinters.make(format, reader: reader).render(seen))
    }

    /// `--watch`: the whole thread as `added`, then what changes in it, read again whenever the
    /// wall pushes a change to its replies (or every --interval).
    private func watch(_ wall: SocialWall, session: Session?, from place: GeoPoint, filterRadius: Distance, context: CommandContext,
                       printer: EventStreamPrinter) throws {
        var shown: [NearbyPost]?
        var threadId = postId
        try ReadAgainWatchLoop(
            offer: try LiveQueryOffer.of(context, wall: wall), wallDescription: wall.description, className: "Posts",
            clause: { ParseWall.threadWhere(threadId) }, interval: try follow.parsedInterval(),
            read: {
                let thread = try wall.thread(postId, skip: 0, limit: WallQuery.limitRange.upperBound, session: session)
                threadId = thread.post.objectId
                let posts = ([thread.post] + thread.replies).map {
                    NearbyPost($0, inThreadOf: thread.post, from: place, filterRadius: filterRadius)
                }
                let events = shown.map { ResultMerge.changes(from: $0, to: posts, at: Date(), place: place, filterRadius: filterRadius) }
                    ?? posts.map { ChangeEvent(kind: .added, time: Date(), post: $0) }
                shown = posts
                if !events.isEmpty { Terminal.output(printer.render(events)) }
            }).run()
    }
}
