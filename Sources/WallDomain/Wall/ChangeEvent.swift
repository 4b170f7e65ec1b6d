import Foundation

/// What happened to one post between two results of the same query.
public enum ChangeKind: String, Sendable, Codable, CaseIterable {
    /// In the new result, not in the previous one.
    case added
    /// In the previous result, not in the new one.
    case removed
    /// Kept, and now within the filter radius.
    case revealed
    /// Kept, and now beyond the filter radius.
    case hidden
    /// Kept, seen alike, and its score or text is not what it was.
    case changed
}

/// One change, as printed by `--changes` and `--watch`:
/// `{"event":"added","time":"...","post":{...}}`.
public struct ChangeEvent: Equatable, Sendable, Codable {
    public let kind: ChangeKind
    public let time: Date
    /// The post as it is now; for `removed`, as it was last seen.
    public let post: NearbyPost

    public init(kind: ChangeKind, time: Date, post: NearbyPost) {
        self.kind = kind
        self.time = time
        self.post = post
    }

    private enum CodingKeys: String, CodingKey { case event, time, post }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .event)
        try c.encode(ParseDate.string(from: time), forKey: .time)
        try c.encode(post, forKey: .post)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(ChangeKind.self, forKey: .event)
        let text = try c.decode(String.self, forKey: .time)
        guard let date = ParseDate.date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: c, debugDescription: "bad date \(text)")
        }
        time = date
        post = try c.decode(NearbyPost.self, forKey: .post)
    }
}
