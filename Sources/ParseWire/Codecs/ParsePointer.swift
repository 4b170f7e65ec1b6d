import WallDomain

/// A Pointer to an object: `{"__type":"Pointer","className":..,"objectId":..}`.
public struct ParsePointer: Equatable, Sendable, ParseCodable {
    public let className: String
    public let objectId: String

    public init(className: String, objectId: String) {
        self.className = className
        self.objectId = objectId
    }

    /// A pointer to a user.
    public static func user(_ objectId: String) -> ParsePointer { ParsePointer(className: "_User", objectId: objectId) }

    public var json: JSONValue {
        .object(["__type": .string("Pointer"), "className": .string(className), "objectId": .string(objectId)])
    }

    public init(json: JSONValue) throws(ParseError) {
        guard json.isParseType("Pointer") || json.isParseType("Object"), let fields = json.fields,
              let className = fields["className"]?.text, let objectId = fields["objectId"]?.text else {
            throw .invalidJSON("bad Pointer: expected {\"__type\":\"Pointer\",\"className\":..,\"objectId\":..}")
        }
        self.init(className: className, objectId: objectId)
    }
}
