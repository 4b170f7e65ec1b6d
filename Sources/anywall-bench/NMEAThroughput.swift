import ArgumentParser
import EmbeddedStore
import Foundation
import WallDomain
import WallLocation

extension AnywallBench {
    /// Reads an NMEA log the way `--nmea` does (64 KiB reads through the decoder) and reports
    /// the throughput, best of several passes so the page cache is warm.
    struct NMEA: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Parse an NMEA log and print {\"bytes\":N,\"fixes\":N,\"seconds\":S} for the fastest pass.")

        @Argument(help: "The log.") var file: String
        @Option(help: "Passes over the log.") var rounds = 3

        func run() throws {
            guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
            var best = Double.infinity
            var bytes = 0, fixes = 0
            for _ in 0..<rounds {
                let feed = try NMEASource(path: file).open(stop: nil, keepTrying: false)
                defer { feed.close() }
                let start = ContinuousClock.now
                let deadline = start + .seconds(600)
                fixes = 0
                while let event = try feed.next(until: deadline), event != .end {
                    if case .fix = event { fixes += 1 }
                }
                let elapsed = start.duration(to: .now)
                best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            bytes = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
            print(#"{"bytes":\#(bytes),"fixes":\#(fixes),"seconds":\#(best)}"#)
        }
    }
}
