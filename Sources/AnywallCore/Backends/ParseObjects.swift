import Foundation

// anywall's objects in Parse's REST encoding: the class `Posts` with `text`, `location` and `user`
// as the Anywall apps store them, and the `_User` fields anywall reads.

/// A GeoPoint as Parse encodes it: `{"__type":"GeoPoint","latitude":..,"longitude":..}`.
struct ParseGeoPoint: Codable {
    var type = "GeoPoint"
    let latitude: Double
    let longitude: Double

    init(_ point: GeoPoint) {
        latitude = point.latitude
        longitude = point.longitude
    }

    /// An area's corner: Parse takes the poles and the antimeridian in `$box` and `$polygon`.
    init(_ vertex: AreaVertex) {
        latitude = vertex.latitude
        longitude = vertex.longitude
    }

    enum CodingKeys: String, CodingKey {
        case type = "__type", latitude, longitude
    }
}

/// A Pointer to a user: `{"__type":"Pointer","className":"_User","objectId":..}`.
struct ParseUserPointer: Encodable {
    let type = "Pointer"
    let className = "_User"
    let objectId: String

    enum CodingKeys: String, CodingKey {
        case type = "__type", className, objectId
    }
}

/// One entry of an ACL.
struct ParseAccess: Encodable {
    let read: Bool
    let write: Bool?
}

/// A new post: Anywall's fields and an ACL that lets everyone read it and only its author change it.
struct ParseNewPost: Encodable {
    let text: String
    let location: ParseGeoPoint
    let user: ParseUserPointer
    let ACL: [String: ParseAccess]

    init(text: String, location: GeoPoint, userId: String) {
        self.text = text
        self.location = ParseGeoPoint(location)
        user = ParseUserPointer(objectId: userId)
        ACL = ["*": ParseAccess(read: true, write: nil), userId: ParseAccess(read: true, write: true)]
    }
}

/// A new account. Public read, so that others see the author of its posts through `include=user`
/// (Parse Server 7 makes users private unless told otherwise, and adds the user's own access).
struct ParseNewUser: Encodable {
    let username: String
    let password: String
    let name: String?
    let ACL = ["*": ParseAccess(read: true, write: nil)]
}

/// Credentials for `POST /login`.
struct ParseLogin: Encodable {
    let username: String
    let password: String
}

/// A user as `/login`, `/users/me` or `include=user` return it (password and hashes are never sent).
struct ParseUserRecord: Decodable {
    let objectId: String
    let username: String?
    let name: String?
    let sessionToken: String?
}

/// The answer to creating an object (a post, or a user with its session).
struct ParseCreated: Decodable {
    let objectId: String
    let createdAt: String
    let sessionToken: String?
}

/// A post as a query returns it; `user` may be absent, a bare Pointer, or the included user.
struct ParseFoundPost: Decodable {
    let objectId: String
    let text: String?
    let location: GeoPoint
    let user: ParseUserRecord?
    let createdAt: String
}

/// The answer to a query.
struct ParseResults<Item: Decodable>: Decodable {
    let results: [Item]
}

/// The answer to `GET /config` (newer servers also send `masterKeyOnly`, unused here).
struct ParseConfigAnswer: Codable {
    let params: [String: JSONValue]
}

/// A schema for the `Posts` class, as `anywall config init` creates it.
struct ParsePostsSchema: Encodable {
    struct Field: Encodable {
        let type: String
        var targetClass: String?
    }

    let className = "Posts"
    let fields: [String: Field] = [
        "text": Field(type: "String"),
        "location": Field(type: "GeoPoint"),
        "user": Field(type: "Pointer", targetClass: "_User"),
    ]
}

/// An answer anywall does not read beyond its status.
struct ParseIgnored: Decodable {}

/// An error answer: `{"code":..,"error":..}`, or `{"code":1,"message":..}` from an uncaught
/// server error, or the bare `{"error":"unauthorized"}` of a refused key.
struct ParseErrorAnswer: Decodable {
    let code: Int?
    let error: String?
    let message: String?
}
