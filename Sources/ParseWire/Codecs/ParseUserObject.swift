import Foundation
import WallDomain

/// A user as `/login`, `/users/me` and `include=user` return it: never a password or hash; the
/// session token only to its owner. Only `objectId` is sure to be there (a bare Pointer, or a
/// user the caller may not read, carries nothing else).
public struct ParseUserObject: Equatable, Sendable, ParseCodable {
    public let objectId: String
    public var username: String?
    public var name: String?
    public var sessionToken: String?
    public var createdAt: Date?
    public var updatedAt: Date?
    public var acl: ParseACL?

    public init(objectId: String, username: String? = nil, name: String? = nil, sessionToken: String? = nil,
                createdAt: Date? = nil, updatedAt: Date? = nil, acl: ParseACL? = nil) {
        self.objectId = objectId
        self.username = username
        self.name = name
        self.sessionToken = sessionToken
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.acl = acl
    }

    public var json: JSONValue { .object(fields) }

    /// The user as an object included in another (`include=user`): typed as Parse types it.
    public var includedJSON: JSONValue {
        .object(fields.merging(["__type": .string("Object"), "className": .string("_User")]) { $1 })
    }

    private var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["objectId": .string(objectId)]
        if let username { fields["username"] = .string(username) }
        if let name { fields["name"] = .string(name) }
        if let sessionToken { fields["sessionToken"] = .string(sessionToken) }
        if let createdAt { fields["createdAt"] = .string(ParseDate.string(from: createdAt)) }
        if let updatedAt { fields["updatedAt"] = .string(ParseDate.string(from: updatedAt)) }
        if let acl { fields["ACL"] = acl.json }
        return fields
    }

    public init(json: JSONValue) throws(ParseError) {
        guard let fields = json.fields, let objectId = fields["objectId"]?.text else {
            throw .invalidJSON("bad user: expected an object with an objectId")
        }
        self.init(objectId: objectId, username: fields["username"]?.text, name: fields["name"]?.text,
                  sessionToken: fields["sessionToken"]?.text,
                  createdAt: try fields["createdAt"].map(ParseUserObject.date), updatedAt: try fields["updatedAt"].map(ParseUserObject.date),
                  acl: try fields["ACL"].map(ParseACL.init(json:)))
    }

    /// A built-in date field: a bare ISO string.
    static func date(_ json: JSONValue) throws(ParseError) -> Date {
        guard let text = json.text, let date = ParseDate.date(from: text) else {
            throw .invalidJSON("bad date: expected YYYY-MM-DDTHH:MM:SS.sssZ")
        }
        return date
    }
}
