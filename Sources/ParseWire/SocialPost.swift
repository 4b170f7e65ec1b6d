import Foundation
import WallDomain

/// A post as the social layer reads it from a Parse Server's record: the post, its author's
/// objectId, its thread, and its counters, from which the removal is decided when the server
/// did not decide it (a stock server keeps `removed` only where Cloud Code sets it). Read alike from
/// a REST answer and from a LiveQuery event.
package struct SocialPost {
    package let post: Post
    package let authorId: String?
    package let reportCount: Int
    /// The removal the server sent (anywall-server's, a moderator's), if any.
    package let removedOnServer: PostRemoval?
    /// Whether a moderator restored it: the community's votes and reports no longer remove it.
    package let restored: Bool
    /// Whether its counters were ever moved: a post never voted on or reported is up whatever
    /// the thresholds (the embedded wall decides only when a vote or report comes).
    package let isCounted: Bool

    package var location: GeoPoint { post.location }
    package var parent: String? { post.parent }

    /// The post of `record`, nil for a record without text or place (not a post anywall shows).
    package init?(record: ParsePostObject) {
        guard let text = record.text, let location = try? record.location?.point() else { return nil }
        let author: String?
        if case .included(let user) = record.author { author = user.name ?? user.username } else { author = nil }
        authorId = record.author?.objectId
        reportCount = Self.counter(record.extra["reportCount"])
        removedOnServer = record.extra["removed"]?.text.flatMap(PostRemoval.init(rawValue:))
        restored = record.extra["restoredAt"] != nil
        isCounted = record.extra["score"] != nil || record.extra["reportCount"] != nil
        let parent = record.extra["parent"].flatMap { try? ParsePointer(json: $0).objectId }
        post = Post(objectId: record.objectId, text: text, location: location, author: author, createdAt: record.createdAt,
                    score: Self.counter(record.extra["score"]), replyCount: Self.counter(record.extra["replyCount"]), parent: parent,
                    removed: removedOnServer)
    }

    /// Whether the rules are needed to tell whether it is removed.
    package var needsRules: Bool { removedOnServer == nil && !restored && isCounted }

    /// The post as `reader` (a user's objectId) gets it under `rules`: nil when removed and not
    /// theirs; their own removed post tells why.
    package func shown(to reader: String?, under rules: CommunityRules?) -> Post? {
        let removal = removedOnServer ?? (needsRules ? rules?.removal(score: post.score, reportCount: reportCount, current: nil, restored: restored) : nil)
        guard let removal else { return post }
        guard reader != nil, reader == authorId else { return nil }
        return post.telling(myVote: post.myVote, removed: removal)
    }

    /// A counter's value in a record (absent: never moved).
    package static func counter(_ json: JSONValue?) -> Int {
        json?.number.flatMap { Int(exactly: $0) } ?? 0
    }
}
