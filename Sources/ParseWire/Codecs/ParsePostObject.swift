import Foundation
import WallDomain

/// A post of the class `Posts` as a query returns it, with Anywall's fields: `text`, `location`
/// and `user`, a Pointer or (with `include=user`) the included user. A query's `keys` may leave
/// out any field but `objectId` and the dates; a user the caller may not read is left out. The
/// fields a client added come beside them (`extra`).
public struct ParsePostObject: Equatable, Sendable, ParseCodable {
    /// The post's author, as the query gives it.
    public enum Author: Equatable, Sendable {
        case pointer(String)
        case included(ParseUserObject)

        public var objectId: String {
            switch self {
            case .pointer(let id): return id
            case .included(let user): return user.objectId
            }
        }
    }

    public let objectId: String
    public var text: String?
    public var location: ParseGeoPoint?
    public var author: Author?
    public let createdAt: Date
    public var updatedAt: Date?
    public var acl: ParseACL?
    /// The fields a client added, by name, as Parse writes their values.
    public var extra: [String: JSONValue] = [:]

    /// A post with only what every answer carries; the query fills in the fields it returns.
    public init(objectId: String, createdAt: Date) {
        self.objectId = objectId
        self.createdAt = createdAt
    }

    public var json: JSONValue {
        var fields = extra
        fields["objectId"] = .string(objectId)
        fields["createdAt"] = .string(ParseDate.string(from: createdAt))
        if let updatedAt { fields["updatedAt"] = .string(ParseDate.string(from: updatedAt)) }
        if let text { fields["text"] = .string(text) }
        if let location { fields["location"] = location.json }
        if let acl { fields["ACL"] = acl.json }
        switch author {
        case .pointer(let id): fields["user"] = ParsePointer.user(id).json
        case .included(let user): fields["user"] = user.includedJSON
        case nil: break
        }
        return .object(fields)
    }

    public init(json: JSONValue) throws(ParseError) {
        guard let fields = json.fields, let objectId = fields["objectId"]?.text, let created = fields["createdAt"] else {
            throw .invalidJSON("bad post: expected an object with an objectId and createdAt")
        }
        let author: Author?
        switch fields["user"] {
        case nil, .null?: author = nil
        case let user? where user.isParseType("Pointer"): author = .pointer(try ParsePointer(json: user).objectId)
        case let user?: author = .included(try ParseUserObject(json: user))
        }
        self.init(objectId: objectId, createdAt: try ParseUserObject.date(created))
        text = fields["text"]?.text
        location = try fields["location"].map(ParseGeoPoint.init(json:))
        self.author = author
        updatedAt = try fields["updatedAt"].map(ParseUserObject.date)
        acl = try fields["ACL"].map(ParseACL.init(json:))
        extra = fields.filter { !Self.builtInFields.contains($0.key) }
    }

    /// The fields every post has, beside those a client adds.
    public static let builtInFields: Set<String> = ["objectId", "createdAt", "updatedAt", "text", "location", "user", "ACL"]
}
