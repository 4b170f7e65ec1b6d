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
        @Flag(help: ArgumentHelp("""
            Also time the peer: bench-wall's growing-radius SQL through SQLite's C API on the same file, \
            after checking it finds the same posts in the same order at every place.
            """)) var sqlPeer = false
        @Option(help: ArgumentHelp("The peer's rings, in km: it stops at the first holding the limit.", valueName: "KM,KM,..."))
        var sqlRings = "1,4,16,50,100"

        func validate() throws {
            guard rounds >= 1, warmup >= 0, searchDistanceKm > 0 else {
                throw ValidationError("--rounds must be at least 1, --warmup at least 0, --search-distance-km above 0")
            }
            // An existing file only: EmbeddedWall would otherwise create an empty wall and time nothing.
            guard FileManager.default.fileExists(atPath: store) else { throw ValidationError("no wall at \(store)") }
            guard !ringDistances.isEmpty else { throw ValidationError("--sql-rings: expected kilometres separated by commas") }
        }

        private var ringDistances: [Distance] {
            let rings = sqlRings.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            return rings.contains(nil) ? [] : rings.compactMap { $0.map(Distance.kilometers) }
        }

        func run() throws {
            let queries = try readPlaces().map {
                try WallQuery(center: $0, searchDistance: .kilometers(searchDistanceKm), limit: limit)
            }
            let file = URL(fileURLWithPath: store)
            let wall = try EmbeddedWall(file: file)
            let benchmark = NearbyBenchmark(queries: queries, rounds: rounds, warmup: warmup)
            guard sqlPeer else {
                let report = try benchmark.run(label: label, nearby: wall.nearby)
                print(json ? report.json : report.text)
                return
            }
            let peer = try SQLNearbyPeer(file: file, rings: ringDistances)
            for query in queries {
                guard try wall.nearby(query).map(\.objectId) == peer.nearby(query).map(\.objectId) else {
                    throw SQLNearbyPeer.Failure(message: "it and anywall disagree at \(query.center.latitude),\(query.center.longitude)")
                }
            }
            let ours = try benchmark.run(label: label, nearby: wall.nearby)
            let theirs = try benchmark.run(label: "\(label ?? "nearby") (SQL peer)", nearby: peer.nearby)
            print(json ? #"{"anywall":\#(ours.json),"sqlPeer":\#(theirs.json)}"# : ours.text + "\n" + theirs.text)
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
