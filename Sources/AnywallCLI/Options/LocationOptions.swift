import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// LOCATION: where the command takes place.
struct LocationOptions: ParsableArguments {
    // `.unconditional` so that `--at -33.87,151.21` takes the negative latitude as its value.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "A fixed location, e.g. 37.7793,-122.4193.", valueName: "LAT,LON"))
    var at: CheckedArgument<GeoPoint>?

    @Option(name: .long, help: ArgumentHelp(
        "Read fixes from gpsd (default: localhost:2947; the value may be left out).", valueName: "HOST[:PORT]"))
    var gpsd: CheckedArgument<GPSDAddress>?

    @Option(name: .long, help: ArgumentHelp(
        "Read NMEA 0183 from a file, a serial device, or stdin for '-'.", valueName: "PATH|-"), completion: .file())
    var nmea: String?

    @Option(name: .long, help: ArgumentHelp("Serial line speed for an NMEA device, e.g. 4800, 9600, 115200.", valueName: "N"))
    var baud: CheckedArgument<BaudRate>?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How long to wait for a location fix (default: 10).", valueName: "SECONDS"))
    var fixTimeout: CheckedArgument<FixTimeout>?

    func validate() throws {
        guard [at != nil, gpsd != nil, nmea != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("give one LOCATION: --at, --gpsd or --nmea")
        }
    }

    /// The source named by the flags, else by `ANYWALL_LOCATION` or the `location` setting.
    func spec(_ preferences: Preferences) throws -> LocationSpec {
        if let at { return .fixed(try at.value()) }
        if let gpsd { return .gpsd(try gpsd.value()) }
        if let nmea { return .nmea(path: nmea) }
        if let spec = try preferences.location { return spec }
        throw AnywallError.noFix(
            "no location: give --at LAT,LON, --gpsd or --nmea PATH, or set one with 'anywall settings set location ...'")
    }

    /// The source to read, with the serial speed applied.
    func source(_ spec: LocationSpec) throws -> LocationSource {
        let baud = try baud?.value()
        if baud != nil {
            guard case .nmea = spec else {
                // A flag that does not go with the source: a usage error, as other such pairs are.
                throw ValidationError("--baud is for an NMEA serial device (--nmea PATH)")
            }
        }
        return spec.makeSource(baud: baud)
    }

    /// The first fix from the chosen source, with a status line on a terminal while waiting.
    func fix(_ preferences: Preferences) throws -> (spec: LocationSpec, fix: Fix) {
        let spec = try spec(preferences)
        let source = try source(spec)
        let status = StatusLine()
        defer { status.clear() }
        let fix = try source.firstFix(timeout: try timeout()) { waited in
            status.showWaiting(for: source, waited: waited)
        }
        return (spec, fix)
    }

    /// `--fix-timeout`, checked (default 10 s).
    func timeout() throws -> Duration {
        try fixTimeout?.value().duration ?? FixTimeout.standard
    }
}
