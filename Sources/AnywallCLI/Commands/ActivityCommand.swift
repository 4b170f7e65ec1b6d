import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct ActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity", abstract: "Show what happened to your posts and threads, newest first.",
        discussion: """
            Replies to your posts and in threads you replied in, votes on your posts (gathered per post), \
            and your posts removed and restored. Like 'nearby --changes', it shows what came since you \
            last looked; --since TIME shows what came after TIME (an ISO date, or an age such as 90min, \
            12h, 7d), --since all everything.

            With --watch, prints that, then keeps running and prints each new entry as it comes, in the \
            same form (with --ndjson one JSON object per line), remembering what was shown as without \
            it. Votes come gathered per post: an entry counts the votes since the previous one printed. \
            On anywall-server, and on a Parse Server whose LiveQuery server the 'live-query-url' setting \
            (or PARSE_LIVE_QUERY_URL) names, it subscribes to the feed's Activity rows over LiveQuery; \
            otherwise it asks the wall again every --interval, and says so once on stderr.

            \(UsageExamples.activity)
            """)

    @Option(help: ArgumentHelp("all, an ISO date, or an age such as 12h or 7d (default: since you last looked).", valueName: "TIME"))
    var since: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("How many entries at most, 1 to 1000 (default: 100).", valueName: "N"))
    var limit: CheckedArgument<ResultLimit>?
    @OptionGroup var follow: FollowOptions
    @OptionGroup var format: FormatOptions
    @OptionGroup var store: StoreOptions

    /// Entries in one page, unless told otherwise.
    static let defaultLimit = 100

    func validate() throws {
        if format.format == .geojson { throw ValidationError("the activity feed has no GeoJSON form: use --json or --ndjson") }
        try follow.validate(format)
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let preferences = context.preferences()
        let format = try self.format.resolved(preferences)
        let wall = try context.openSocialWall(for: "activity")
        let marks = ActivityMarks(directory: context.paths.savedResultsDirectory)
        let reader = ReaderPreferences.atStandardOutput(units: try preferences.units, noColorFlag: self.format.noColor,
                                                        environment: context.environment)
        if follow.watch {
            // Settings may ask for JSON, which cannot stream: the stream is then NDJSON.
            try watch(wall, marks: marks, context: context, printer: ActivityPrinter(format: format == .table ? .table : .ndjson, reader: reader))
            return
        }
        let (entries, user) = try context.withSession(on: wall) { session in
            let since = try since.map(Self.time(parsing:)) ?? marks.shownUntil(backend: wall.identity, user: session.user.objectId)
            return (try wall.activity(since: since, limit: try limit?.value().count ?? Self.defaultLimit, session: session), session.user)
        }
        Terminal.output(ActivityPrinter(format: format, reader: reader).render(entries))
        if entries.isEmpty, format == .table { Terminal.note("Nothing new.") }
        if let newest = entries.first?.time, since == nil {
            try marks.markShown(until: newest, backend: wall.identity, user: user.objectId)
        }
    }

    /// `--watch`: what is new, then each new entry, read again whenever the wall pushes a change
    /// to the feed's rows (or every --interval); what was shown is remembered as without --watch.
    private func watch(_ wall: SocialWall, marks: ActivityMarks, context: CommandContext, printer: ActivityPrinter) throws {
        let session = try context.sessions.requireSession(for: wall.identity)
        let count = try limit?.value().count ?? Self.defaultLimit
        var after = try since.map(Self.time(parsing:)) ?? marks.shownUntil(backend: wall.identity, user: session.user.objectId)
        try ReadAgainWatchLoop(
            offer: try LiveQueryOffer.of(context, wall: wall), wallDescription: wall.description, className: "Activity",
            clause: { ParseWall.activityWhere(user: session.user.objectId) }, interval: try follow.parsedInterval(),
            read: {
                let entries = try wall.activity(since: after, limit: count, session: session)
                guard let newest = entries.first?.time else { return }
                var printer = printer
                printer.now = Date()
                Terminal.output(printer.render(entries))
                after = newest
                if since == nil { try marks.markShown(until: newest, backend: wall.identity, user: session.user.objectId) }
            }).run()
    }

    /// `all` (nil), an ISO date, or an age before now (`90min`, `12h`, `7d`).
    static func time(parsing text: String) throws -> Date? {
        if text == "all" { return nil }
        if let date = ParseDate.date(from: text) { return date }
        let units: [(suffix: String, seconds: Double)] = [("min", 60), ("h", 3600), ("d", 86_400)]
        for unit in units where text.hasSuffix(unit.suffix) {
            if let number = Double(text.dropLast(unit.suffix.count)), number.isFinite, number >= 0, number <= 36_500 * 86_400 / unit.seconds {
                return Date(timeIntervalSinceNow: -number * unit.seconds)
            }
        }
        throw AnywallError.inputRejected("'\(text)' is not a time: all, an ISO date (2026-11-27T10:00:00Z), or an age such as 90min, 12h, 7d")
    }
}
