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
    /// backend sorts with this, so the orders agree wherever the wall is kept; ties go nearest
    /// first (`NearestFirst`), and `near` is that order alone.
    public func ordered(_ posts: [Post], from center: GeoPoint, now: Date, limit: Int) -> [Post] {
        let nearest = NearestFirst(around: center)
        let keyed = posts.map { (post: $0, rank: nearest.rank($0.location, $0.objectId)) }
        let sorted: [(post: Post, rank: NearestFirst.Rank)]
        switch self {
        case .near:
            sorted = keyed.sorted { $0.rank < $1.rank }
        case .new:
            sorted = keyed.sorted { ($1.post.createdAt, $0.rank) < ($0.post.createdAt, $1.rank) }
        case .top:
            sorted = keyed.sorted { ($1.post.score, $1.post.createdAt, $0.rank) < ($0.post.score, $0.post.createdAt, $1.rank) }
        case .hot:
            let heat = keyed.map { Self.hotness(score: $0.post.score, age: .seconds(now.timeIntervalSince($0.post.createdAt))) }
            sorted = keyed.indices.sorted { (-heat[$0], keyed[$0].rank) < (-heat[$1], keyed[$1].rank) }.map { keyed[$0] }
        }
        return sorted.prefix(limit).map(\.post)
    }
}
