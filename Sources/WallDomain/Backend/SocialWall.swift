import Foundation

/// A wall that talks back: replies, votes, reports and moderators, with the rules of
/// `CommunityRules`. A reader's `radius` is their filter radius: a reply, vote or report from
/// farther than it (or than the wall's own `CommunityRules.reach`) is refused.
public protocol SocialWall: WallBackend {
    /// The posts of `query` (not replies) in `sort` order as `session`'s user sees them: with their
    /// vote, and their own removed posts; without a session, as anyone.
    func nearby(_ query: WallQuery, sort: PostSort, session: Session?) throws -> [Post]
    /// A reply in the thread of `objectId`, written at `location`.
    func reply(to objectId: String, text: String, at location: GeoPoint, radius: Distance, session: Session) throws -> Post
    /// The post `objectId` and its replies, oldest first, skipping `skip`, at most `limit`.
    func thread(_ objectId: String, skip: Int, limit: Int, session: Session?) throws -> PostThread
    /// Casts, changes (`up`, `down`) or withdraws (`none`) the user's vote; the post after it.
    func vote(_ vote: Vote, on objectId: String, from location: GeoPoint, radius: Distance, session: Session) throws -> Post
    /// Reports the post (again: the report is replaced, and counts once).
    func report(_ objectId: String, reason: ReportReason, note: String?, from location: GeoPoint, radius: Distance,
                session: Session) throws
    /// The reports of a post the user may see: their own; every one, for a moderator.
    func reports(on objectId: String, session: Session) throws -> [Report]
    /// Deletes the user's own post or reply (a moderator: any), with its replies.
    func delete(_ objectId: String, session: Session) throws
    /// What happened to the user's posts and threads after `since` (nil: ever), newest first,
    /// at most `limit` entries.
    func activity(since: Date?, limit: Int, session: Session) throws -> [ActivityEntry]
    /// The sum of the scores of the user's posts and replies.
    func karma(_ session: Session) throws -> Int
    /// Removed and reported posts, most recently reported first: moderators only.
    func moderationQueue(limit: Int, session: Session) throws -> [ModeratedPost]
    /// Restores or removes a post: moderators only. The post after it.
    func moderate(_ objectId: String, _ action: ModeratorAction, session: Session) throws -> Post
    /// Makes `username` a moderator or not; `masterKey` is for backends that ask for one.
    func setModerator(_ username: String, _ isModerator: Bool, masterKey: String?) throws
}
