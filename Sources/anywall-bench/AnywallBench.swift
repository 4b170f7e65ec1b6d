import ArgumentParser
import EmbeddedStore
import Foundation
import WallDomain
import WallLocation

/// The benchmark tool's commands.
struct AnywallBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anywall-bench", abstract: "Time anywall's embedded wall, NMEA parser, LiveQuery matching and map drawing in process.",
        subcommands: [Nearby.self, NMEA.self, LiveMatching.self, MapDrawing.self])

    struct Nearby: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the nearby query at every place of a file and print latency percentiles (µs).",
            discussion: "FILE lists one place per line as LAT,LON; blank lines and lines starting with # are skipped.")

        @Option(help: "The wall's SQLite file (it must exist).") var store: String
        @Option(help: ArgumentHelp("The places to query.", valueName: "FILE")) var places: String
        @Option(help: "Timed passes over all places.") var rounds = 10
        @Option(help: "Untimed passes first, to warm the caches.") var warmup = 1
        @Option(help: "Posts per query.") var limit = WallQuery.defaultLimit
        @Option(help: "How far to look, in km.") var searchDistanceKm = WallQuery.defaultSearchDistance.converted(to: .kilometers).value
        @Option(help: "A name for this set of places, echoed in the report.") var label: String?
        @Flag(help: "Print one JSON object instead of plain lines.") var json = false

        func validate() throws {
            guard rounds >= 1, warmup >= 0, searchDistanceKm > 0 else {
                throw ValidationError("--rounds must be at least 1, --warmup at least 0, --search-distance-km above 0")
            }
            // An existing file only: EmbeddedWall would otherwise create an empty wall and time nothing.
            guard FileManager.default.fileExists(atPath: store) else { throw ValidationError("no wall at \(store)") }
        }

        func run() throws {
            let queries = try readPlaces().map {
                try WallQuery(center: $0, searchDistance: .kilometers(searchDistanceKm), limit: limit)
            }
            let benchmark = NearbyBenchmark(store: URL(fileURLWithPath: store), queries: queries, rounds: rounds, warmup: warmup)
            let report = try benchmark.run(label: label)
            print(json ? report.json : report.text)
        }

        /// The places listed in the `--places` file.
        private func readPlaces() throws -> [GeoPoint] {
            guard let text = try? String(contentsOfFile: places, encoding: .utf8) else {
                throw ValidationError("cannot read \(places)")
            }
            var points: [GeoPoint] = []
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                do {
                    points.append(try GeoPoint(parsing: trimmed))
                } catch let error as AnywallError {
                    throw ValidationError("\(places): line \(index + 1): \(error.reason)")
                }
            }
            guard !points.isEmpty else { throw ValidationError("\(places) lists no places") }
            return points
        }
    }
}
