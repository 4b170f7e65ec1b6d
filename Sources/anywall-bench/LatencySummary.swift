import EmbeddedStore
import WallDomain
import WallLocation
/// Percentiles of a set of latency samples, in microseconds.
struct LatencySummary {
    let count: Int
    let p50: Double
    let p90: Double
    let p99: Double
    let mean: Double
    let min: Double
    let max: Double

    init(nanoseconds samples: [UInt64]) {
        let sorted = samples.sorted()
        count = sorted.count
        // Nearest-rank percentiles: every figure is a latency that was actually measured.
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
            return Double(sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]) / 1000
        }
        p50 = percentile(50)
        p90 = percentile(90)
        p99 = percentile(99)
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1000
        min = Double(sorted.first ?? 0) / 1000
        max = Double(sorted.last ?? 0) / 1000
    }
}
