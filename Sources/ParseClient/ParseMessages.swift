import ParseWire
import WallDomain

// The bodies anywall sends to a Parse Server and the answers it reads beyond the objects of
// ParseWire: the class `Posts` with `text`, `location` and `user` as the Anywall apps store them.

/// A new post, or a reply in the thread of `parent`: Anywall's fields and an ACL that lets
/// everyone read it and only its author change it.
struct ParseNewPost: Encodable {
    let text: String
    let location: ParseGeoPoint
    let user: ParsePointer
    /// The thread's post of a reply; none (no key) for a post.
    let parent: ParsePointer?
    let ACL: ParseACL

    init(text: String, location: GeoPoint, userId: String, parent: String? = nil) {
        self.text = text
        self.location = ParseGeoPoint(location)
        user = .user(userId)
        self.parent = parent.map { ParsePointer(className: "Posts", objectId: $0) }
        ACL = .publicRead(writer: userId)
    }
}

/// A new account. Public read, so that others see the author of its posts through `include=user`
/// (Parse Server 7 makes users private unless told otherwise, and adds the user's own access).
struct ParseNewUser: Encodable {
    let username: String
    let password: String
    let name: String?
    let ACL = ParseACL.publicRead(writer: nil)
}

/// Credentials for `POST /login`.
struct ParseLogin: Encodable {
    let username: String
    let password: String
}

/// The answer to creating an object (a post, or a user with its session).
package struct ParseCreated: Decodable {
    package let objectId: String
    package let createdAt: String
    package let sessionToken: String?
}

/// The answer to a query.
package struct ParseResults<Item: Decodable>: Decodable {
    package let results: [Item]
}

/// The answer to `GET /config` (newer servers also send `masterKeyOnly`, unused here).
package struct ParseConfigAnswer: Codable {
    package let params: [String: JSONValue]
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
