import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The wall's records in ParseWire's shapes, as Parse Server returns them.
enum ParseRendering {
    /// A user as `/login` and `/users/me` return it: never a password or hash; the session token
    /// only when it is the caller's own. Every user is public-read (as anywall signs them up) and
    /// only writable by themselves.
    static func user(_ user: StoredUser, sessionToken: String? = nil) -> ParseUserObject {
        ParseUserObject(objectId: user.objectId, username: user.username, name: user.name, sessionToken: sessionToken,
                        createdAt: user.createdAt, updatedAt: user.createdAt, acl: .publicRead(writer: user.objectId))
    }

    /// A post as a query returns it: the author included as an object when `includeUser`, else a
    /// Pointer; `keys`, when given, limits the fields to those, and `excludeKeys` leaves those out
    /// (objectId, the dates and the ACL, when the post has one, always come, as Parse Server always
    /// selects them).
    static func post(_ post: StoredPost, includeUser: Bool, keys: Set<String>?, excludeKeys: Set<String> = []) -> ParsePostObject {
        func returns(_ field: String) -> Bool { keys.map { $0.contains(field) } ?? true && !excludeKeys.contains(field) }
        var object = ParsePostObject(objectId: post.objectId, createdAt: post.createdAt)
        object.updatedAt = post.updatedAt
        if returns("text") { object.text = post.text }
        if returns("location") { object.location = ParseGeoPoint(post.location) }
        if returns("user") { object.author = post.author.map { includeUser ? .included(user($0)) : .pointer($0.objectId) } }
        object.acl = post.access.acl.map(ParseACL.init)
        object.extra = post.fields.filter { returns($0.key) }
        // The social fields, as a Parse app keeps them: absent until a vote, reply or removal
        // sets them (a removed post reaches only its author, the moderators and the master key).
        if returns("parent"), let parent = post.parent { object.extra["parent"] = ParsePointer(className: "Posts", objectId: parent).json }
        if returns("score"), post.score != 0 { object.extra["score"] = .number(Double(post.score)) }
        if returns("replyCount"), post.replyCount != 0 { object.extra["replyCount"] = .number(Double(post.replyCount)) }
        if returns("reportCount"), post.reportCount != 0 { object.extra["reportCount"] = .number(Double(post.reportCount)) }
        if returns("removed"), let removed = post.removed { object.extra["removed"] = .string(removed.rawValue) }
        if returns("restoredAt"), let restoredAt = post.restoredAt { object.extra["restoredAt"] = ParseDateValue(restoredAt).json }
        return object
    }

    /// A session as Parse's `_Session` object: its token, user, how it was made (a password; the
    /// wall does not keep whether by sign-up or log-in, so `login`), when it began and ends. Its
    /// objectId is drawn from the token's digest: stable, and no way back to the token.
    static func session(token: String, user: StoredUser, started: Date, expires: Date) -> [String: JSONValue] {
        ["objectId": .string(String(RandomIdentifier.tokenDigest(token).prefix(10))), "sessionToken": .string(token),
         "user": ParsePointer.user(user.objectId).json, "createdWith": .object(["action": .string("login"), "authProvider": .string("password")]),
         "restricted": .bool(false), "expiresAt": .object(["__type": .string("Date"), "iso": .string(ParseDate.string(from: expires))]),
         "createdAt": date(started), "updatedAt": date(started)]
    }

    /// A built-in date (`createdAt`, `updatedAt`): a bare ISO string.
    static func date(_ date: Date) -> JSONValue { .string(ParseDate.string(from: date)) }
}
