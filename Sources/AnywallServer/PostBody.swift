import ParseWire
import WallDomain

/// The body of a post's create or update, read as Parse Server reads an object: Anywall's fields
/// (`text`, `location`, `user`), its `ACL`, and every other field as a value or an operation
/// (`Delete`, `Increment`, `Add`, `AddUnique`, `Remove`), refused with Parse's codes and messages.
struct PostBody {
    var text: JSONValue?
    var location: GeoPoint?
    var author: JSONValue?
    var access: PostAccess?
    /// The thread's post (objectId) of a reply.
    var parent: String?
    /// Changes asked of the fields only the wall moves (`RecordClass.protectedPostFields`).
    var protectedChanges: [String: FieldChange] = [:]
    var fields: [String: FieldChange] = [:]

    init(_ body: [String: JSONValue]) throws {
        for name in body.keys.sorted() {
            let value = body[name]!
            switch name {
            case "objectId", "id": throw ParseRefusal(ParseErrorCode.invalidKeyName, "\(name) is an invalid field name.")
            // Parse keeps its own dates, whatever a client sends.
            case "createdAt", "updatedAt": continue
            case "text":
                try Self.checkType(of: value, field: name, expected: "String")
                text = value
            case "location": location = try Self.point(value)
            case "user":
                try Self.checkType(of: value, field: name, expected: "Pointer<_User>")
                author = value
            case "ACL":
                do {
                    access = try PostAccess(acl: try ParseACL(json: value).entries)
                } catch let error as AnywallError {
                    throw ParseRefusal(ParseErrorCode.invalidACL, "Invalid ACL: \(error.reason)")
                }
            case "parent":
                try Self.checkType(of: value, field: name, expected: "Pointer<Posts>")
                guard let pointer = try? ParsePointer(json: value) else { throw ParseRefusal(ParseErrorCode.incorrectType, "This is not a valid Pointer") }
                parent = pointer.objectId
            case _ where RecordClass.protectedPostFields.contains(name):
                protectedChanges[name] = try Self.change(value)
            default:
                guard FieldType.isFieldName(name) else { throw ParseRefusal(ParseErrorCode.invalidKeyName, "Invalid field name: \(name).") }
                fields[name] = try Self.change(value)
            }
        }
    }

    /// Refuses a `user` other than the caller (nil: the master key alone, which names no one): a
    /// post's author is who posts it.
    func checkAuthor(_ userId: String?) throws {
        guard let author else { return }
        guard let userId, let pointer = try? ParsePointer(json: author), pointer == .user(userId) else {
            throw ParseRefusal(ParseErrorCode.validationFailed, "a post's user is the user who posts it")
        }
    }

    /// Refuses a value of another type than the built-in field's, with Parse Server's words.
    private static func checkType(of value: JSONValue, field: String, expected: String) throws {
        guard let given = try typeName(of: value), given != expected else { return }
        throw ParseRefusal(ParseErrorCode.incorrectType, "schema mismatch for Posts.\(field); expected \(expected) but got \(given)")
    }

    /// The keys without which a value of each `__type` is not one, as Parse Server tells them.
    private static let typedKeys: [String: [String]] = [
        "Pointer": ["className"], "Relation": ["className"], "File": ["name"], "Date": ["iso"],
        "GeoPoint": ["latitude", "longitude"], "Bytes": ["base64"], "Polygon": ["coordinates"],
    ]

    /// A value's type as Parse Server's schema names it (`Pointer<_User>`, the type an operation
    /// leaves), nil for none (`null`, `Delete`); a `__type` without its keys, or one Parse does not
    /// know, refused as Parse Server refuses it.
    private static func typeName(of value: JSONValue) throws -> String? {
        guard case .object(let object) = value else { return FieldType(of: value)?.rawValue }
        if case .string(let type)? = object["__type"] {
            guard let keys = typedKeys[type], keys.allSatisfy({ (object[$0] ?? .null) != .null }) else {
                throw ParseRefusal(ParseErrorCode.incorrectType, "This is not a valid \(type)")
            }
            if type == "Pointer" || type == "Relation", case .string(let target)? = object["className"] { return "\(type)<\(target)>" }
            return type
        }
        switch object["__op"] {
        case .string("Increment")?: return FieldType.number.rawValue
        case .string("Add")?, .string("AddUnique")?, .string("Remove")?: return FieldType.array.rawValue
        case .some: return nil
        case nil: return FieldType.object.rawValue
        }
    }

    /// A Date as Parse writes one back (`ParseDate`: UTC, milliseconds): the stores compare added
    /// dates by their text, which orders as their instants only in that one form.
    private static func date(_ value: JSONValue) throws -> JSONValue {
        guard case .object(var object) = value, case .string(let iso)? = object["iso"], let date = ParseDate.date(from: iso) else {
            throw ParseRefusal(ParseErrorCode.incorrectType, "This is not a valid Date")
        }
        object["iso"] = .string(ParseDate.string(from: date))
        return .object(object)
    }

    /// A field's new value or operation, as Parse Server's update operators read them.
    private static func change(_ value: JSONValue) throws -> FieldChange {
        try checkNestedKeys(value)
        // A `__type` without its keys is refused before its type is compared, as Parse Server does.
        _ = try typeName(of: value)
        guard case .object(let object) = value, case .string(let operation)? = object["__op"] else {
            if value == .null { return .delete }
            guard let type = FieldType(of: value) else {
                throw ParseRefusal(ParseErrorCode.incorrectType, "anywall-server does not keep this value: \(value.javaScriptText)")
            }
            // Parse keeps one GeoPoint field a class, and Posts' is `location`.
            guard type != .geoPoint else { throw ParseRefusal(ParseErrorCode.incorrectType, "there can only be one geopoint field in a class") }
            return .set(type == .date ? try Self.date(value) : value)
        }
        switch operation {
        case "Delete": return .delete
        case "Increment":
            guard case .number(let amount)? = object["amount"], amount.isFinite else {
                throw ParseRefusal(ParseErrorCode.invalidJSON, "incrementing must provide a number")
            }
            return .increment(amount)
        case "Add", "AddUnique":
            guard case .array(let objects)? = object["objects"] else { throw ParseRefusal(ParseErrorCode.invalidJSON, "objects to add must be an array") }
            return operation == "Add" ? .add(objects) : .addUnique(objects)
        case "Remove":
            guard case .array(let objects)? = object["objects"] else { throw ParseRefusal(ParseErrorCode.invalidJSON, "objects to remove must be an array") }
            return .remove(objects)
        default:
            throw ParseRefusal(ParseErrorCode.commandUnavailable, "anywall-server does not support the \(operation) operation")
        }
    }

    /// Refuses a key holding `$` or `.` anywhere inside a value, as Parse Server does (its
    /// databases read such keys as operators and paths).
    private static func checkNestedKeys(_ value: JSONValue) throws {
        switch value {
        case .object(let object):
            for (key, inner) in object {
                if key.contains("$") || key.contains(".") {
                    throw ParseRefusal(ParseErrorCode.invalidNestedKey, "Nested keys should not contain the '$' or '.' characters")
                }
                try checkNestedKeys(inner)
            }
        case .array(let elements):
            for element in elements { try checkNestedKeys(element) }
        default:
            return
        }
    }

    private static func point(_ json: JSONValue) throws -> GeoPoint {
        try checkType(of: json, field: "location", expected: FieldType.geoPoint.rawValue)
        guard let fields = json.fields, let latitude = fields["latitude"]?.number, let longitude = fields["longitude"]?.number else {
            throw ParseRefusal(ParseErrorCode.incorrectType, "This is not a valid GeoPoint")
        }
        do {
            return try GeoPoint(latitude: latitude, longitude: longitude)
        } catch let error as AnywallError {
            throw ParseRefusal(ParseErrorCode.incorrectType, "bad GeoPoint: \(error.reason)")
        }
    }
}
