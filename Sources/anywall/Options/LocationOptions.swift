import AnywallCore
import ArgumentParser
import Foundation

/// LOCATION: where the command takes place.
struct LocationOptions: ParsableArguments {
    // `.unconditional` so that `--at -33.87,151.21` takes the negative latitude as its value.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "A fixed location, e.g. 37.7793,-122.4193.", valueName: "LAT,LON"))
    var at: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How long to wait for a location fix (default: 10).", valueName: "SECONDS"))
    var fixTimeout: String?

    /// The source named by the flags, else by `ANYWALL_LOCATION` or the `location` setting.
    func spec(_ preferences: Preferences) throws -> LocationSpec {
        if let at { return .fixed(try GeoPoint(parsing: at)) }
        if let spec = preferences.location { return spec }
        throw AnywallError.noFix("no location: give --at LAT,LON, or set one with 'anywall settings set location at:LAT,LON'")
    }

    /// The first fix from the chosen source.
    func fix(_ preferences: Preferences) throws -> (spec: LocationSpec, fix: Fix) {
        let spec = try spec(preferences)
        return (spec, try spec.makeSource().firstFix(timeout: try timeout()))
    }

    static let longestTimeout = 86_400.0

    private func timeout() throws -> Duration {
        guard let fixTimeout else { return .seconds(10) }
        guard let seconds = Double(fixTimeout), seconds > 0, seconds <= Self.longestTimeout else {
            throw AnywallError.inputRejected(
                "bad --fix-timeout '\(fixTimeout)': expected seconds, more than 0 and at most \(Int(Self.longestTimeout)) (a day)")
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}
