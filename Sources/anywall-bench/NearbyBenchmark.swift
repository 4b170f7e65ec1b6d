import EmbeddedStore
import Foundation
import WallDomain
import WallLocation

/// Times a nearby search (`EmbeddedWall.nearby`, or its SQL peer) at a list of places, in one
/// process with one open wall.
struct NearbyBenchmark {
    let queries: [WallQuery]
    let rounds: Int
    let warmup: Int

    func run(label: String?, nearby: (WallQuery) throws -> [Post]) throws -> NearbyReport {
        // Untimed passes first: they fault the file's pages into memory and fill SQLite's page
        // cache and GRDB's statement cache, so the figures are those of a warm, long-lived process.
        for _ in 0..<warmup {
            for query in queries { _ = try nearby(query) }
        }

        var samples: [UInt64] = []
        samples.reserveCapacity(queries.count * rounds)
        var found = 0
        var reach = ReachSummary()
        for round in 0..<rounds {
            for query in queries {
                let start = Self.nanoseconds()
                let posts = try nearby(query)
                samples.append(Self.nanoseconds() - start)
                // Bookkeeping stays outside the timed span and is done once per place.
                if round == 0 {
                    found += posts.count
                    reach.record(posts: posts, query: query)
                }
            }
        }
        // Each place's median over the rounds (samples go round by round, place by place).
        let perPlace = queries.indices.map { place in
            LatencySummary(nanoseconds: stride(from: place, to: samples.count, by: queries.count).map { samples[$0] }).p50
        }
        let slowest = perPlace.indices.max { perPlace[$0] < perPlace[$1] }
        return NearbyReport(label: label, places: queries.count, rounds: rounds,
                            latency: LatencySummary(nanoseconds: samples),
                            meanPostsFound: Double(found) / Double(queries.count), reach: reach,
                            slowestPlace: slowest.map { (queries[$0].center, perPlace[$0]) })
    }

    /// A monotonic clock read directly: cheaper and steadier than going through Date.
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// How far each place had to look: the distance to the farthest post returned, which is the
/// smallest ring an exact growing-radius search can stop at.
///
/// Kept apart from the timings and independent of how AnywallCore grows its rings, so that the
/// figure stays comparable when the search changes.
struct ReachSummary {
    private(set) var reaches: [Double] = []
    /// Places where fewer than `limit` posts lie within the search distance: every ring is scanned.
    private(set) var shortPlaces = 0

    mutating func record(posts: [Post], query: WallQuery) {
        if posts.count < query.limit { shortPlaces += 1 }
        guard let farthest = posts.last else { return }
        reaches.append(query.center.distance(to: farthest.location).meters)
    }

    /// The median reach in metres, or nil when no place found anything.
    var medianMeters: Double? {
        guard !reaches.isEmpty else { return nil }
        return reaches.sorted()[(reaches.count - 1) / 2]
    }
}
