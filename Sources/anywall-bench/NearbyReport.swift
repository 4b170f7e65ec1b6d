import EmbeddedStore
import Foundation
import WallDomain
import WallLocation

/// What one `anywall-bench nearby` run measured, printable as plain lines or one JSON object.
struct NearbyReport {
    let label: String?
    let places: Int
    let rounds: Int
    let latency: LatencySummary
    let meanPostsFound: Double
    let reach: ReachSummary
    /// The place whose median over the rounds was the longest, with that median (µs).
    let slowestPlace: (center: GeoPoint, micros: Double)?

    var text: String {
        let name = label.map { "\($0): " } ?? ""
        let reachText = reach.medianMeters.map { "\(Self.fixed($0)) m" } ?? "-"
        return """
            \(name)\(places) places x \(rounds) rounds = \(latency.count) queries
            \(name)p50 \(Self.fixed(latency.p50)) µs, p90 \(Self.fixed(latency.p90)) µs, p99 \(Self.fixed(latency.p99)) µs \
            (mean \(Self.fixed(latency.mean)), min \(Self.fixed(latency.min)), max \(Self.fixed(latency.max)))
            \(name)posts found per place: \(Self.fixed(meanPostsFound)); median distance to the farthest: \(reachText); \
            places with fewer than the limit: \(reach.shortPlaces)\(slowestText)
            """
    }

    private var slowestText: String {
        guard let slowestPlace, places > 1 else { return "" }
        return "\n\(label.map { "\($0): " } ?? "")slowest place: \(slowestPlace.center.latitude),\(slowestPlace.center.longitude), "
            + "median \(Self.fixed(slowestPlace.micros)) µs"
    }

    /// The figures as one JSON object (microseconds to 0.1).
    var json: String {
        struct Figures: Encodable {
            let label: String?
            let places, rounds, queries: Int
            let p50Micros, p90Micros, p99Micros, meanMicros, minMicros, maxMicros, meanPostsFound: Double
            let medianReachMeters: Double?
            let shortPlaces: Int
            let slowestPlace: String?
            let slowestPlaceMicros: Double?
        }
        func tenth(_ v: Double) -> Double { (v * 10).rounded() / 10 }
        let figures = Figures(
            label: label, places: places, rounds: rounds, queries: latency.count,
            p50Micros: tenth(latency.p50), p90Micros: tenth(latency.p90), p99Micros: tenth(latency.p99),
            meanMicros: tenth(latency.mean), minMicros: tenth(latency.min), maxMicros: tenth(latency.max),
            meanPostsFound: tenth(meanPostsFound), medianReachMeters: reach.medianMeters.map(tenth), shortPlaces: reach.shortPlaces,
            slowestPlace: slowestPlace.map { "\($0.center.latitude),\($0.center.longitude)" }, slowestPlaceMicros: slowestPlace.map { tenth($0.micros) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(figures)) ?? Data("{}".utf8), as: UTF8.self)
    }

    private static func fixed(_ value: Double) -> String { String(format: "%.1f", value) }
}
