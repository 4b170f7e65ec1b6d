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
    var minMove: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "With --watch: ask the wall again this often, e.g. 30, 30s, 500ms, 2min (default: 30s).", valueName: "TIME"))
    var interval: String?

    static let defaultMinMove = Distance.meters(10)
    static let defaultInterval = Duration.seconds(30)

    func validate() throws {
        if !watch, minMove != nil || interval != nil {
            throw ValidationError("--min-move and --interval go with --watch")
        }
    }

    /// `--min-move`, checked.
    func parsedMinMove() throws -> Distance {
        try minMove.map(Distance.init(parsing:)) ?? Self.defaultMinMove
    }

    /// `--interval`, checked: a number of seconds, or a number with `ms`, `s` or `min`, from
    /// 100 ms to a day.
    func parsedInterval() throws -> Duration {
        guard let interval else { return Self.defaultInterval }
        if let duration = Duration(parsing: interval, seconds: 0.1...86_400) { return duration }
        throw AnywallError.inputRejected("bad --interval '\(interval)': expected a time from 100ms to a day, such as 30s or 2min")
    }
}
