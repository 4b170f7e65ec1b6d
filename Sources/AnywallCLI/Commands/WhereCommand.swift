import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct WhereCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "where", abstract: "Show the location fix the other commands would use.",
        discussion: UsageExamples.where)

    @OptionGroup var location: LocationOptions
    @OptionGroup var json: JSONOption
    @OptionGroup var store: StoreOptions

    private struct Output: Encodable {
        let latitude: Double
        let longitude: Double
        let source: String
        let time: String?
        let accuracyMeters: Double?
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let preferences = context.preferences()
        let (_, fix) = try location.fix(preferences)
        if json.json {
            Terminal.output(JSONText.encode(Output(
                latitude: fix.point.latitude, longitude: fix.point.longitude, source: fix.source,
                time: fix.time.map(ParseDate.string(from:)), accuracyMeters: fix.accuracy?.meters)) + "\n")
        } else {
            var line = "\(fix.point.latitude),\(fix.point.longitude)  \(fix.source)"
            if let time = fix.time { line += "  \(ParseDate.string(from: time))" }
            if let accuracy = fix.accuracy { line += "  ±\(accuracy.readable(in: try preferences.units))" }
            Terminal.output(line + "\n")
        }
    }
}
