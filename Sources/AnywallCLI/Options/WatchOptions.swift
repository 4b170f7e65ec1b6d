import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// `nearby --watch` and how often it asks the wall again.
struct WatchOptions: ParsableArguments {
    @Flag(help: "Keep running and print only what changes as you move (ends at the end of NMEA input, or on Ctrl-C).")
    var watch = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "With --watch: ask the wall again after moving this far (default: 10m).", valueName: "D"))
    var minMove: CheckedArgument<Distance>?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "With --watch: ask the wall again this often, e.g. 30, 30s, 500ms, 2min (default: 30s).", valueName: "TIME"))
    var interval: CheckedArgument<WatchInterval>?

    static let defaultMinMove = Distance.meters(10)
    static let defaultInterval = Duration.seconds(30)

    func validate() throws {
        if !watch, minMove != nil || interval != nil {
            throw ValidationError("--min-move and --interval go with --watch")
        }
    }

    /// `--min-move`, checked.
    func parsedMinMove() throws -> Distance {
        try minMove?.value() ?? Self.defaultMinMove
    }

    /// `--interval`, checked.
    func parsedInterval() throws -> Duration {
        try interval?.value().duration ?? Self.defaultInterval
    }
}
