import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation
import WallMap

struct NearbyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby", abstract: "List the posts nearest you, nearest first.",
        discussion: """
            Posts beyond the filter radius are listed without text or author, in every format. \
            With --within, only posts inside an area count (GeoJSON, WKT or WEST,SOUTH,EAST,NORTH).

            --sort orders them otherwise, over every post within the search distance: new (newest \
            first), hot ((score + 1) / (age in hours + 2) ^ 1.8, highest first) or top (highest score, \
            then newest). Replies are not listed: 'anywall thread' shows them.

            With --changes, prints only what changed since the previous run of the same query \
            (same wall, location source, search distance, limit and area): added, removed, revealed, hidden, changed.

            With --watch, keeps following the location source and prints those events as they \
            happen, as readable lines or with --ndjson one JSON object per line, plus changed for a post \
            whose score or text changed. On anywall-server, and on a Parse Server whose LiveQuery server \
            the 'live-query-url' setting (or PARSE_LIVE_QUERY_URL) names, it subscribes over LiveQuery and \
            the wall pushes each change; a move of --min-move updates the subscription, and a dropped \
            connection resumes where it was. Otherwise it asks the wall again after each move of \
            --min-move and every --interval, and says so once on stderr.

            On a Parse Server, --cache-policy chooses between the server and the last answer cached \
            for the same question (Parse's policies; default network-else-cache). An answer from the \
            cache is stale: a warning says when it was cached and the exit code is 3.

            \(UsageExamples.nearby)
            """)

    @OptionGroup var location: LocationOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("The filter radius for this call, e.g. 250ft, 2km (default: the 'radius' setting, else 1000m).", valueName: "D"))
    var radius: CheckedArgument<Distance>?
    @Option(parsing: .unconditional, help: ArgumentHelp("How many posts at most, 1 to 1000 (default: 20).", valueName: "N"))
    var limit: CheckedArgument<ResultLimit>?
    @Option(parsing: .unconditional, help: ArgumentHelp("How far to look (default: 100km).", valueName: "D"))
    var searchDistance: CheckedArgument<Distance>?
    @OptionGroup var area: AreaOption
    @Option(help: ArgumentHelp("The order: near (nearest first, the default), new, hot or top.", valueName: "ORDER"),
            completion: .list(PostSort.allCases.map(\.rawValue)))
    var sort: String?
    @Flag(help: "Print only the changes since the previous run of this query.")
    var changes = false
    @Option(help: ArgumentHelp(
        "On a server: \(CachePolicy.allCases.map(\.rawValue).joined(separator: ", ")) (default: \(CachePolicy.standard.rawValue)).",
        valueName: "P"), completion: .list(CachePolicy.allCases.map(\.rawValue)))
    var cachePolicy: CheckedArgument<CachePolicy>?
    @OptionGroup var watch: WatchOptions
    @OptionGroup var format: FormatOptions
    @OptionGroup var map: MapOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if watch.watch, changes { throw ValidationError("--watch and --changes do not go together") }
        if watch.watch, sort != nil { throw ValidationError("--watch follows the nearest posts: --sort does not apply") }
        if watch.watch, cachePolicy != nil { throw ValidationError("--watch always asks the server: --cache-policy does not apply") }
        if watch.watch, format.format == .json || format.format == .geojson {
            throw ValidationError("--watch prints a stream of events: use --ndjson, or no format for readable lines")
        }
        if watch.watch, map.size != nil { throw ValidationError("--watch --map follows the terminal's size: --size does not apply") }
        if map.map, changes { throw ValidationError("--map draws the posts as they are: --changes does not apply") }
        if map.map, let format = format.format, format != .table {
            throw ValidationError("--map draws a picture: it does not go with --\(format.rawValue)")
        }
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let preferences = context.preferences()
        let format = try self.format.resolved(preferences)
        let search = try searchDistance?.value() ?? WallQuery.defaultSearchDistance
        let filterRadius: Distance
        if let radius {
            filterRadius = try radius.value()
            try FilterRadius.validatePerCall(filterRadius, searchDistance: search)
        } else {
            // A radius nobody typed here simply cannot reach past the search distance.
            filterRadius = min(try preferences.radius ?? FilterRadius.defaultRadius, search)
        }
        let area = try self.area.area()
        let units = try preferences.units
        let reader = ReaderPreferences.atStandardOutput(units: units, noColorFlag: self.format.noColor,
                                                        environment: context.environment)
        if watch.watch, map.map {
            // A pipe gets one frame per change only as events: a picture redrawn in place needs a terminal.
            guard Terminal.stdoutIsTerminal else {
                throw ValidationError("--watch --map redraws a terminal: on a pipe use --watch --ndjson")
            }
        }
        if watch.watch {
            let spec = try location.spec(preferences)
            let wall = try context.openBackendSendingOutbox()
            let count = try limit?.value().count ?? WallQuery.defaultLimit
            let minMove = try watch.parsedMinMove()
            let nearby = NearbyWatch(backend: wall, searchDistance: search, limit: count, filterRadius: filterRadius,
                                     minMove: minMove, interval: try watch.parsedInterval(), within: area)
            let offer = try LiveQueryOffer.of(context, wall: wall)
            let listen = offer.map { offer in
                { (fix: Fix) throws -> LiveNearbyListener in
                    try LiveNearbyListener(offer: offer, wall: wall, query: WallQuery(center: fix.point, searchDistance: search, limit: count, within: area),
                                           from: fix, filterRadius: filterRadius, minMove: minMove)
                }
            }
            // Settings may ask for JSON or GeoJSON, which cannot stream: the stream is then NDJSON.
            let lines: EventStreamPrinter
            if map.map {
                lines = MapScreen(style: try map.style(environment: context.environment), units: units, color: reader.color, filterRadius: filterRadius)
            } else {
                lines = format == .table ? EventLinePrinter(reader: reader) : NDJSONPrinter()
            }
            // The embedded wall offers no LiveQuery, and is asked without a word: it is the user's own file.
            try NearbyWatchLoop(source: try location.source(spec), watch: nearby, listen: listen,
                                printer: lines, fixTimeout: try location.timeout()).run()
            return
        }
        let policy = try cachePolicy?.value() ?? .standard
        let (spec, fix) = try location.fix(preferences)
        let query = try WallQuery(center: fix.point, searchDistance: search, limit: try limit?.value().count ?? WallQuery.defaultLimit, within: area)
        let wall = try context.openBackendSendingOutbox()
        let printer = ResultPrinters.make(format, reader: reader)
        let mapPrinter = map.map ? try MapPrinter(renderer: RadarRenderer(style: map.style(environment: context.environment),
                                                                          size: map.frameSize(environment: context.environment)),
                                                  units: units, color: reader.color) : nil
        // Only the table says so: an empty JSON array or collection speaks for itself.
        let emptyNote = format == .table
            ? "No posts within \(query.searchDistance.readable(in: units))\(area == nil ? "" : " in the area")." : nil
        let sort = try self.sort.map { text in
            guard let sort = PostSort(rawValue: text) else {
                throw AnywallError.inputRejected("'\(text)' is not an order: it is \(PostSort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return sort
        } ?? .near
        let lookup = NearbyLookup(backend: wall, cache: ResultCache(directory: context.paths.resultCacheDirectory), policy: policy,
                                  sort: sort, session: try context.sessions.session(for: wall.identity))
        let stale = try lookup.run(query, filterRadius: filterRadius, deliver: { answer in
            if let cachedAt = answer.cachedAt {
                Terminal.note("anywall: stale: the answer cached \(ParseDate.string(from: cachedAt)) (\(policy.rawValue))")
            }
            if let mapPrinter {
                Terminal.output(mapPrinter.render(answer.posts, fix: fix, filterRadius: filterRadius))
                return
            }
            try show(answer.posts, printer: printer, emptyNote: emptyNote, wall: wall, spec: spec, query: query, fix: fix,
                      filterRadius: filterRadius, context: context)
        }, warn: Terminal.warn)
        if stale { throw ExitStatus.stale.exitCode }
    }

    /// Prints one answer: the posts, or with --changes what changed since the saved result.
    private func show(_ posts: [NearbyPost], printer: ResultPrinter, emptyNote: String?, wall: WallBackend, spec: LocationSpec,
                       query: WallQuery, fix: Fix, filterRadius: Distance, context: CommandContext) throws {
        if changes {
            let saved = SavedResults(directory: context.paths.savedResultsDirectory)
            let key = SavedResults.key(backend: wall.identity, location: spec.description, query: query)
            let events = ResultMerge.changes(from: try saved.previous(key: key), to: posts, at: Date(),
                                             place: fix.point, filterRadius: filterRadius)
            try saved.save(posts, key: key)
            Terminal.output(printer.render(events))
        } else {
            Terminal.output(printer.render(posts))
            if posts.isEmpty, let emptyNote { Terminal.note(emptyNote) }
        }
    }
}
