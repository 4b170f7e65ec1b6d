import AnywallCore
import Foundation

/// What one `anywall-bench nearby` run measured, printable as plain lines or one JSON object.
struct NearbyReport {
    let label: String?
    let places: Int
    let rounds: Int
    let latency: LatencySummary
    let meanPostsFound: Double
    let rings: RingHistogram

    var text: String {
        let name = label.map { "\($0): " } ?? ""
        let ringText = zip(rings.radii, rings.counts).map { "\(Self.km($0.0)) km: \($0.1)" }.joined(separator: ", ")
        return """
            \(name)\(places) places x \(rounds) rounds = \(latency.count) queries
            \(name)p50 \(Self.fixed(latency.p50)) µs, p90 \(Self.fixed(latency.p90)) µs, p99 \(Self.fixed(latency.p99)) µs \
            (mean \(Self.fixed(latency.mean)), min \(Self.fixed(latency.min)), max \(Self.fixed(latency.max)))
            \(name)posts found per place: \(Self.fixed(meanPostsFound)); ring that answered: \(ringText)
            """
    }

    var json: String {
        // Built by hand to keep the keys in a fixed, readable order.
        let ringPairs = zip(rings.radii, rings.counts).map { "\"\(Self.km($0.0))\":\($0.1)" }.joined(separator: ",")
        var fields: [String] = []
        if let label { fields.append("\"label\":\(Self.quoted(label))") }
        fields += [
            "\"places\":\(places)", "\"rounds\":\(rounds)", "\"queries\":\(latency.count)",
            "\"p50Micros\":\(Self.fixed(latency.p50))", "\"p90Micros\":\(Self.fixed(latency.p90))",
            "\"p99Micros\":\(Self.fixed(latency.p99))", "\"meanMicros\":\(Self.fixed(latency.mean))",
            "\"minMicros\":\(Self.fixed(latency.min))", "\"maxMicros\":\(Self.fixed(latency.max))",
            "\"meanPostsFound\":\(Self.fixed(meanPostsFound))", "\"placesByRingKm\":{\(ringPairs)}",
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func fixed(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func km(_ distance: Distance) -> String {
        let km = distance.meters / 1000
        return km == km.rounded() ? String(Int(km)) : String(format: "%g", km)
    }

    private static func quoted(_ text: String) -> String {
        let data = try? JSONEncoder().encode(text)
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
