import ArgumentParser
import Foundation
import WallDomain

/// `thread --watch` and `activity --watch`: keep running and print what is new, listening over
/// LiveQuery where the wall offers it, else asking again every `--interval`.
struct FollowOptions: ParsableArguments {
    @Flag(help: "Keep running and print what is new as it comes (ends on Ctrl-C).")
    var watch = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "With --watch, where the wall offers no LiveQuery: ask it again this often, e.g. 30s, 500ms, 2min (default: 30s).",
        valueName: "TIME"))
    var interval: CheckedArgument<WatchInterval>?

    func validate() throws {
        if !watch, interval != nil { throw ValidationError("--interval goes with --watch") }
    }

    /// `--interval`, checked.
    func parsedInterval() throws -> Duration {
        try interval?.value().duration ?? WatchOptions.defaultInterval
    }

    /// --watch prints a stream: JSON and GeoJSON documents cannot be one.
    func validate(_ format: FormatOptions) throws {
        if watch, format.format == .json || format.format == .geojson {
            throw ValidationError("--watch prints a stream of events: use --ndjson, or no format for readable lines")
        }
    }
}
