import AnywallCore
import Foundation

/// The wall's records as Parse Server returns them.
enum ParseRendering {
    /// Every user is public-read (as anywall signs them up) and only writable by themselves.
    static func userACL(_ objectId: String) -> JSONValue {
        .object(["*": .object(["read": .bool(true)]), objectId: .object(["read": .bool(true), "write": .bool(true)])])
    }

    /// Posts are public-read and only writable by their author: the only ACL this server keeps.
    static func postACL(authorId: String?) -> JSONValue {
        var acl: [String: JSONValue] = ["*": .object(["read": .bool(true)])]
        if let authorId { acl[authorId] = .object(["read": .bool(true), "write": .bool(true)]) }
        return .object(acl)
    }

    static func date(_ date: Date) -> JSONValue { .string(ParseDate.string(from: date)) }

    /// A user as `/login` and `/users/me` return it: never a password or hash; the session token
    /// only when it is the caller's own.
    static func user(_ user: StoredUser, sessionToken: String? = nil) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "objectId": .string(user.objectId), "username": .string(user.username),
            "createdAt": date(user.createdAt), "updatedAt": date(user.createdAt), "ACL": userACL(user.objectId),
        ]
        if let name = user.name { object["name"] = .string(name) }
        if let sessionToken { object["sessionToken"] = .string(sessionToken) }
        return object
    }

    /// A GeoPoint: `{"__type":"GeoPoint","latitude":..,"longitude":..}`.
    static func geoPoint(_ point: GeoPoint) -> JSONValue {
        .object(["__type": .string("GeoPoint"), "latitude": .number(point.latitude), "longitude": .number(point.longitude)])
    }

    /// A post as a query returns it: the author included as an object when `includeUser`, else a
    /// Pointer; `keys`, when given, limits the fields to those (objectId and the dates always come).
    static func post(_ post: StoredPost, includeUser: Bool, keys: Set<String>?) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "objectId": .string(post.objectId), "text": .string(post.text), "location": geoPoint(post.location),
            "createdAt": date(post.createdAt), "updatedAt": date(post.updatedAt), "ACL": postACL(authorId: post.author?.objectId),
        ]
        if let author = post.author {
            if includeUser {
                object["user"] = .object(user(author).merging(["__type": .string("Object"), "className": .string("_User")]) { $1 })
            } else {
                object["user"] = .object(["__type": .string("Pointer"), "className": .string("_User"), "objectId": .string(author.objectId)])
            }
        }
        if let keys {
            object = object.filter { ["objectId", "createdAt", "updatedAt"].contains($0.key) || keys.contains($0.key) }
        }
        return object
    }
}
