import AnywallCore
import Foundation

/// Times `EmbeddedWall.nearby` at a list of places, in one process with one open wall.
struct NearbyBenchmark {
    /// The radii the embedded search tries in turn (then the search distance). They mirror the
    /// internal `EmbeddedNearbySearch.ringSteps`, which is not public: they are used here only
    /// to report which ring each place needed, never to time anything.
    static let ringSteps: [Distance] = [.kilometers(1), .kilometers(4), .kilometers(16), .kilometers(50)]

    let options: BenchOptions

    func run() throws -> NearbyReport {
        let places = try options.readPlaces()
        let queries = try places.map {
            try WallQuery(center: $0, searchDistance: options.searchDistance, limit: options.limit)
        }
        let wall = try EmbeddedWall(file: options.store)

        // Untimed passes first: they fault the file's pages into memory and fill SQLite's page
        // cache and GRDB's statement cache, so the figures are those of a warm, long-lived process.
        for _ in 0..<options.warmup {
            for query in queries { _ = try wall.nearby(query) }
        }

        var samples: [UInt64] = []
        samples.reserveCapacity(queries.count * options.rounds)
        var found = 0
        var rings = RingHistogram(steps: Self.ringSteps, searchDistance: options.searchDistance)
        for round in 0..<options.rounds {
            for query in queries {
                let start = Self.nanoseconds()
                let posts = try wall.nearby(query)
                samples.append(Self.nanoseconds() - start)
                // Bookkeeping stays outside the timed span and is done once per place.
                if round == 0 {
                    found += posts.count
                    rings.record(posts: posts, query: query)
                }
            }
        }
        return NearbyReport(label: options.label, places: queries.count, rounds: options.rounds,
                            latency: LatencySummary(nanoseconds: samples),
                            meanPostsFound: Double(found) / Double(queries.count), rings: rings)
    }

    /// A monotonic clock read directly: cheaper and steadier than going through Date.
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// How many places needed each ring of the adaptive search.
///
/// A ring of radius r answers the query once it holds `limit` posts, that is once the
/// `limit`-th nearest post is within r; a place with fewer posts in reach scans every ring.
struct RingHistogram {
    let radii: [Distance]
    private(set) var counts: [Int]

    init(steps: [Distance], searchDistance: Distance) {
        radii = steps.filter { $0 < searchDistance } + [searchDistance]
        counts = Array(repeating: 0, count: radii.count)
    }

    mutating func record(posts: [Post], query: WallQuery) {
        guard posts.count >= query.limit, let farthest = posts.last else {
            counts[counts.count - 1] += 1
            return
        }
        let reach = query.center.distance(to: farthest.location)
        counts[radii.firstIndex { reach <= $0 } ?? (radii.count - 1)] += 1
    }
}
