import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The cost of matching one write against many LiveQuery subscriptions, both as anywall-server
/// does it (the subscriptions whose area may hold the post, from `SubscriptionGrid`) and as
/// Parse Server does it (every subscription), on the same subscriptions and writes in one run:
/// what `anywall-bench live-matching` prints.
package enum LiveMatchingBenchmark {
    package struct Result: Codable, Sendable {
        package let subscriptions: Int
        package let writes: Int
        /// Nanoseconds per write, from the grid and from every subscription.
        package let indexedNanosecondsPerWrite: Double
        package let linearNanosecondsPerWrite: Double
        /// Subscriptions tested per write through the grid, and events made per write (the same both ways).
        package let candidatesPerWrite: Double
        package let eventsPerWrite: Double
    }

    /// Cities where 80 % of the subscriptions and posts are, the rest anywhere on land or sea.
    private static let cities: [(Double, Double)] = [
        (40.71, -74.01), (51.51, -0.13), (35.68, 139.69), (48.86, 2.35), (37.77, -122.42), (-33.87, 151.21), (19.43, -99.13),
        (52.52, 13.40), (55.76, 37.62), (-23.55, -46.63), (28.61, 77.21), (1.35, 103.82), (30.04, 31.24), (41.01, 28.98),
    ]

    package static func run(subscriptions count: Int, writes: Int, seed: UInt64 = 1) throws -> Result {
        var random = SeededGenerator(seed: seed)
        func place() throws -> GeoPoint {
            if Double.random(in: 0..<1, using: &random) < 0.8 {
                let city = cities[Int.random(in: 0..<cities.count, using: &random)]
                return try GeoPoint(latitude: city.0 + Double.random(in: -0.1...0.1, using: &random),
                                    longitude: city.1 + Double.random(in: -0.1...0.1, using: &random))
            }
            return try GeoPoint(latitude: Double.random(in: -80...80, using: &random), longitude: Double.random(in: -179...179, using: &random))
        }
        let client = LiveClient(queueLimit: 1 << 20, address: nil)
        var subscriptions: [LiveSubscription] = []
        var grid = SubscriptionGrid<Int>()
        for index in 0..<count {
            let clause = WhereClause(near: WhereClause.Near(center: try place(), maxDistance: .kilometers(Double.random(in: 1...5, using: &random))))
            var request = LiveQueryRequest.Subscribe()
            request.requestId = Double(index)
            let subscription = try LiveSubscription(client: client, request: request, clause: clause,
                                                    reader: LiveReader(isMaster: true, userId: nil, roleNames: []), start: 0)
            subscriptions.append(subscription)
            grid.insert(index, boxes: subscription.boxes)
        }
        let author = StoredUser(objectId: "author", username: "author", name: nil, createdAt: Date())
        let changes = try (0..<writes).map { seq in
            let post = StoredPost(objectId: "p\(seq)", text: "a post", location: try place(), author: author, createdAt: Date(), updatedAt: Date(),
                                  access: .publicRead(author: author.objectId))
            return PostChange(seq: Int64(seq), kind: .create, objectId: post.objectId, before: nil, after: post)
        }
        var candidates = 0, indexedEvents = 0, linearEvents = 0
        let clock = ContinuousClock()
        let indexed = clock.measure {
            for change in changes {
                let found = grid.candidates(at: [change.after!.location])
                candidates += found.count
                let rendering = ChangeRendering()
                for index in found where subscriptions[index].event(for: change, rendering: rendering, schema: [:]) != nil { indexedEvents += 1 }
            }
        }
        let linear = clock.measure {
            for change in changes {
                let rendering = ChangeRendering()
                for subscription in subscriptions where subscription.event(for: change, rendering: rendering, schema: [:]) != nil { linearEvents += 1 }
            }
        }
        guard indexedEvents == linearEvents else {
            throw AnywallError.inputRejected("the grid missed events: \(indexedEvents) against \(linearEvents) from every subscription")
        }
        func perWrite(_ duration: Duration) -> Double {
            (Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9) / Double(max(writes, 1))
        }
        return Result(subscriptions: count, writes: writes, indexedNanosecondsPerWrite: perWrite(indexed), linearNanosecondsPerWrite: perWrite(linear),
                      candidatesPerWrite: Double(candidates) / Double(max(writes, 1)), eventsPerWrite: Double(indexedEvents) / Double(max(writes, 1)))
    }
}
