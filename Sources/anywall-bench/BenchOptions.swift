import AnywallCore
import Foundation

/// What `anywall-bench` was asked to do, read from its arguments.
///
/// Parsed by hand: the benchmark depends on AnywallCore only, so that what it times is the
/// library and nothing the CLI adds.
struct BenchOptions {
    /// Thrown for `--help`: the caller prints `usage` and exits successfully.
    struct UsageRequested: Error {
        let usage = BenchOptions.usage
    }

    static let usage = """
        usage: anywall-bench nearby --store PATH --places FILE [options]

        Opens the embedded wall once, runs the nearby query at every place of FILE
        (one `LAT,LON` per line) and prints the latency percentiles in microseconds.

          --store PATH         the wall's SQLite file (required)
          --places FILE        places to query, one `LAT,LON` per line (required)
          --rounds N           timed passes over all places (default: 10)
          --warmup N           untimed passes first, to warm the caches (default: 1)
          --limit N            posts per query (default: 20)
          --search-distance KM how far to look, in km (default: 100)
          --label TEXT         a name for this set of places, echoed in the report
          --json               print one JSON object instead of plain lines
        """

    var store: URL
    var places: URL
    var rounds = 10
    var warmup = 1
    var limit = WallQuery.defaultLimit
    var searchDistance = WallQuery.defaultSearchDistance
    var label: String?
    var json = false

    init(arguments: [String]) throws {
        var rest = arguments[...]
        guard let command = rest.popFirst(), command != "--help", command != "-h" else { throw UsageRequested() }
        guard command == "nearby" else { throw AnywallError.inputRejected("unknown command '\(command)'; try --help") }
        var store: String?
        var places: String?
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw AnywallError.inputRejected("\(flag) needs a value") }
            return next
        }
        func count(_ flag: String, minimum: Int) throws -> Int {
            let text = try value(flag)
            guard let n = Int(text), n >= minimum else {
                throw AnywallError.inputRejected("bad \(flag) '\(text)': expected a whole number of at least \(minimum)")
            }
            return n
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--store": store = try value(flag)
            case "--places": places = try value(flag)
            case "--rounds": rounds = try count(flag, minimum: 1)
            case "--warmup": warmup = try count(flag, minimum: 0)
            case "--limit": limit = try count(flag, minimum: 1)
            case "--search-distance":
                let text = try value(flag)
                guard let km = Double(text), km > 0 else {
                    throw AnywallError.inputRejected("bad --search-distance '\(text)': expected kilometres above 0")
                }
                searchDistance = .kilometers(km)
            case "--label": label = try value(flag)
            case "--json": json = true
            case "--help", "-h": throw UsageRequested()
            default: throw AnywallError.inputRejected("unknown option '\(flag)'; try --help")
            }
        }
        guard let store else { throw AnywallError.inputRejected("--store PATH is required") }
        guard let places else { throw AnywallError.inputRejected("--places FILE is required") }
        // An existing file only: EmbeddedWall would otherwise create an empty wall and time nothing.
        guard FileManager.default.fileExists(atPath: store) else {
            throw AnywallError.inputRejected("no wall at \(store)")
        }
        self.store = URL(fileURLWithPath: store)
        self.places = URL(fileURLWithPath: places)
    }

    /// The places listed in the `--places` file.
    func readPlaces() throws -> [GeoPoint] {
        let text: String
        do {
            text = try String(contentsOf: places, encoding: .utf8)
        } catch {
            throw AnywallError.inputRejected("cannot read \(places.path): \(error.localizedDescription)")
        }
        var points: [GeoPoint] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do {
                points.append(try GeoPoint(parsing: trimmed))
            } catch let error as AnywallError {
                throw AnywallError.inputRejected("\(places.path): line \(index + 1): \(error.message)")
            }
        }
        guard !points.isEmpty else { throw AnywallError.inputRejected("\(places.path) lists no places") }
        return points
    }
}
