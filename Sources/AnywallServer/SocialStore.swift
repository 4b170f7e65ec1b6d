import Foundation
import WallDomain

/// The social layer of a store (replies, votes, reports, moderators), as the `Posts` and
/// `Activity` routes serve it. Each call is one transaction of the store's, the rows and the
/// counters they move together; what is allowed, and when a post goes, is `CommunityRules`',
/// with the wall's reach (the widest filter radius of its config) as the distance. `token` is
/// the caller's session: every change here is a signed-in user's.
package protocol SocialStore: Sendable {
    /// A reply to the thread of post `parent`, written at `location`.
    func reply(to parent: String, text: String, at location: GeoPoint, token: String) async throws -> StoredPost
    /// Casts, changes or withdraws (`none`, which needs no place) the caller's vote on `post`;
    /// its row after it, nil when withdrawn.
    func vote(_ vote: Vote, on post: String, from location: GeoPoint?, token: String) async throws -> StoredActivity?
    /// Changes or withdraws the caller's vote row `activityId`.
    func changeVote(_ activityId: String, to vote: Vote, from location: GeoPoint?, token: String) async throws -> StoredActivity?
    /// Files or replaces the caller's report of `post`; its row.
    func report(_ post: String, reason: ReportReason, note: String?, from location: GeoPoint, token: String) async throws -> StoredActivity
    /// The `Activity` rows of `filter` the caller may read, newest first.
    func activities(_ filter: ActivityFilter, skip: Int, limit: Int, token: String) async throws -> [StoredActivity]
    /// Deletes the caller's post or reply with its replies (a moderator: any).
    func delete(_ post: String, token: String) async throws
    /// Removes or restores `post`: moderators only.
    func moderate(_ post: String, _ action: ModeratorAction, token: String) async throws
    /// Whether the caller is in the role `moderators`.
    func isModerator(token: String) async throws -> Bool

    /// A new role holding `users` (objectIds of accounts; others are left out); nil when the
    /// name is taken.
    func createRole(name: String, acl: [String: PostAccess.Rights], users: [String]) async throws -> StoredRole?
    /// The roles named `name` or with `objectId` (nil: any), in the order they were made.
    func roles(name: String?, objectId: String?, skip: Int, limit: Int) async throws -> [StoredRole]
    /// Adds and removes users of the role `objectId`; the role after it, nil when there is none.
    func changeRoleUsers(_ objectId: String, adding: [String], removing: [String]) async throws -> StoredRole?
    /// Deletes the role `objectId`; false when there was none.
    func deleteRole(_ objectId: String) async throws -> Bool
    /// The names of the roles the account `userId` holds: what ACLs naming roles are read against.
    func roleNames(ofUser userId: String) async throws -> Set<String>
}
