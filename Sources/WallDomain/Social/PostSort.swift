import Foundation

/// The order `nearby` lists posts in.
public enum PostSort: String, CaseIterable, Sendable, Codable {
    /// Nearest first, as Anywall lists them (ties by objectId).
    case near
    /// Newest first.
    case new
    /// Yik Yak's Hot: `(score + 1) / (ageHours + 2) ^ 1.8`, highest first; ties nearest first.
    case hot
    /// Highest score first, then newest.
    case top

    /// How hot a post with `score`, `age` old, is.
    public static func hotness(score: Int, age: Duration) -> Double {
        let hours = max(0, Double(age.components.seconds) / 3600 + Double(age.components.attoseconds) / 3.6e21)
        return Double(score + 1) / pow(hours + 2, 1.8)
    }

    /// `posts` in this order as seen from `center` at `now`, the first `limit` of them. Every
    /// backend sorts with this, so the orders agree wherever the wall is kept.
    public func ordered(_ posts: [Post], from center: GeoPoint, now: Date, limit: Int) -> [Post] {
        let keyed = posts.map { (post: $0, distance: center.distance(to: $0.location)) }
        let sorted: [(post: Post, distance: Distance)]
        switch self {
        case .near:
            sorted = keyed.sorted { ($0.distance, $0.post.objectId) < ($1.distance, $1.post.objectId) }
        case .new:
            sorted = keyed.sorted { ($1.post.createdAt, $0.distance, $0.post.objectId) < ($0.post.createdAt, $1.distance, $1.post.objectId) }
        case .top:
            sorted = keyed.sorted {
                ($1.post.score, $1.post.createdAt, $0.post.objectId) < ($0.post.score, $0.post.createdAt, $1.post.objectId)
            }
        case .hot:
            let heat = keyed.map { Self.hotness(score: $0.post.score, age: .seconds(now.timeIntervalSince($0.post.createdAt))) }
            sorted = keyed.indices.sorted {
                (-heat[$0], keyed[$0].distance, keyed[$0].post.objectId) < (-heat[$1], keyed[$1].distance, keyed[$1].post.objectId)
            }.map { keyed[$0] }
        }
        return sorted.prefix(limit).map(\.post)
    }
}
