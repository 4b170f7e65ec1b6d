import Foundation
import WallDomain

/// Reads the fields of a `where` (all but a post's `location`, which `WhereClause` reads) into
/// a `RecordCondition`, refusing what Parse Server refuses with its codes and messages, and with
/// 102 what Parse takes and anywall-server does not.
public enum WhereCondition {
    /// How deep `$or`, `$and`, `$nor` and sub-queries may nest, and how many values one `$in` or
    /// `$nin` may list: bounds on one query's SQL, far beyond what a client asks.
    public static let maxDepth = 16
    public static let maxValues = 1000

    /// The condition the `where` object's `fields` state on `recordClass`.
    public static func read(_ fields: [String: JSONValue], of recordClass: RecordClass) throws(ParseError) -> RecordCondition {
        try read(fields, of: recordClass, depth: 0)
    }

    private static func read(_ fields: [String: JSONValue], of recordClass: RecordClass, depth: Int) throws(ParseError) -> RecordCondition {
        guard depth <= maxDepth else { throw .invalidQuery("anywall-server nests $or, $and, $nor and sub-queries \(maxDepth) deep at most") }
        var parts: [RecordCondition] = []
        for key in fields.keys.sorted() {
            let constraint = fields[key]!
            switch key {
            case "$or": parts.append(.any(try list(constraint, of: recordClass, depth, "Bad $or format - use an array value.")))
            case "$and": parts.append(.all(try list(constraint, of: recordClass, depth, "Bad $and format - use an array value.")))
            case "$nor":
                let alternatives = try list(constraint, of: recordClass, depth, "Bad $nor format - use an array of at least 1 value.")
                guard !alternatives.isEmpty else { throw .invalidQuery("Bad $nor format - use an array of at least 1 value.") }
                parts.append(.not(.any(alternatives)))
            case "ACL": throw .invalidQuery("Cannot query on ACL.")
            case "$relatedTo": parts.append(try relatedTo(constraint, of: recordClass))
            default: parts.append(try field(key, constraint, of: recordClass, depth: depth))
            }
        }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    /// `{"object": <Pointer to a _Role>, "key": "users"}`: the users holding the role, the one
    /// relation anywall-server keeps.
    private static func relatedTo(_ argument: JSONValue, of recordClass: RecordClass) throws(ParseError) -> RecordCondition {
        guard case .object(let relation) = argument, let object = relation["object"], case .string(let key)? = relation["key"],
              let pointer = try? ParsePointer(json: object) else {
            throw .invalidQuery("improper usage of $relatedTo")
        }
        guard recordClass == .users, pointer.className == "_Role", key == "users" else {
            throw .invalidQuery("anywall-server keeps one relation, a role's users: $relatedTo takes a _Role and the key users")
        }
        return .holdsRole(pointer.objectId)
    }

    private static func list(_ json: JSONValue, of recordClass: RecordClass, _ depth: Int, _ refusal: String) throws(ParseError) -> [RecordCondition] {
        guard case .array(let items) = json else { throw .invalidQuery(refusal) }
        guard items.count <= maxValues else { throw .invalidQuery("anywall-server takes \(maxValues) alternatives at most") }
        var conditions: [RecordCondition] = []
        for item in items {
            guard case .object(let fields) = item else { throw .invalidQuery(refusal) }
            conditions.append(try read(fields, of: recordClass, depth: depth + 1))
        }
        return conditions
    }

    private static func field(_ key: String, _ constraint: JSONValue, of recordClass: RecordClass, depth: Int) throws(ParseError) -> RecordCondition {
        guard isKeyName(key) else { throw ParseError(ParseErrorCode.invalidKeyName, "Invalid key name: \(key)") }
        if key == "location", recordClass == .posts {
            throw .invalidQuery("anywall-server asks a post's location only at the top of where, not inside $or, $and or $nor")
        }
        guard !key.contains(".") else { throw .invalidQuery("anywall-server does not query inside objects: \(key)") }
        guard let field = RecordField(key, of: recordClass) else {
            throw .invalidQuery("anywall-server does not query \(recordClass.rawValue) by \(key)")
        }
        guard case .object(let object) = constraint, object.keys.contains(where: { $0.hasPrefix("$") }) else {
            return .compare(field, .equal, try atom(constraint, for: field))
        }
        var parts: [RecordCondition] = []
        for name in object.keys.sorted() {
            let argument = object[name]!
            switch name {
            case "$eq": parts.append(.compare(field, .equal, try atom(argument, for: field)))
            case "$ne": parts.append(.not(.compare(field, .equal, try atom(argument, for: field))))
            case "$lt": parts.append(.compare(field, .less, try atom(argument, for: field)))
            case "$lte": parts.append(.compare(field, .lessOrEqual, try atom(argument, for: field)))
            case "$gt": parts.append(.compare(field, .greater, try atom(argument, for: field)))
            case "$gte": parts.append(.compare(field, .greaterOrEqual, try atom(argument, for: field)))
            case "$in", "$nin":
                guard case .array(let items) = argument else { throw .invalidJSON("bad \(name) value") }
                guard items.count <= maxValues else { throw .invalidQuery("anywall-server takes \(maxValues) values at most in \(name)") }
                var values: [FieldValue] = []
                for item in items { values.append(try atom(item, for: field)) }
                parts.append(name == "$in" ? .among(field, values) : .not(.among(field, values)))
            case "$exists":
                guard case .bool(let exists) = argument else { throw .invalidJSON("bad $exists value") }
                parts.append(exists ? .exists(field) : .not(.exists(field)))
            case "$regex":
                guard case .string(let pattern) = argument else { throw .invalidJSON("bad regex: \(argument.javaScriptText)") }
                var options = ""
                if case .string(let given)? = object["$options"] {
                    guard !given.isEmpty, given.allSatisfy({ "imxs".contains($0) }) else {
                        throw .invalidQuery("Bad $options value for query: \(given)")
                    }
                    options = given
                }
                do {
                    parts.append(.matches(field, try TextPattern(pattern, options: options)))
                } catch {
                    throw .invalidQuery(error.reason)
                }
            case "$options":
                guard object["$regex"] != nil else { throw .invalidJSON("bad constraint: $options") }
            case "$inQuery", "$notInQuery":
                let users = try inQuery(argument, on: field, name, depth: depth)
                parts.append(name == "$inQuery" ? .authorAmong(users) : .not(.authorAmong(users)))
            case "$select", "$dontSelect":
                let users = try select(argument, on: field, name, depth: depth)
                parts.append(name == "$select" ? .authorAmong(users) : .not(.authorAmong(users)))
            case "$all", "$containedBy", "$text", "$elemMatch", "$relativeTime", "$size":
                throw .invalidQuery("anywall-server does not support \(name)")
            case "$nearSphere", "$within", "$geoWithin", "$geoIntersects", "$maxDistance", "$maxDistanceInRadians",
                 "$maxDistanceInKilometers", "$maxDistanceInMiles":
                throw .invalidQuery("anywall-server takes \(name) only on a post's location")
            default:
                throw .invalidJSON("bad constraint: \(name)")
            }
        }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    /// `{"where": {...}, "className": "_User"}` on a post's `user`: the users the condition asks.
    private static func inQuery(_ argument: JSONValue, on field: RecordField, _ name: String, depth: Int) throws(ParseError) -> RecordCondition {
        guard case .object(let query) = argument, case .object(let users)? = query["where"], case .string(let className)? = query["className"] else {
            throw .invalidQuery("improper usage of \(name)")
        }
        try checkUserPointer(field, className, name)
        return try read(users, of: .users, depth: depth + 1)
    }

    /// `{"query": {"className": "_User", "where": {...}}, "key": "objectId"}` on a post's `user`.
    private static func select(_ argument: JSONValue, on field: RecordField, _ name: String, depth: Int) throws(ParseError) -> RecordCondition {
        guard case .object(let selection) = argument, selection.count == 2, case .object(let query)? = selection["query"],
              case .string(let className)? = query["className"], case .string(let key)? = selection["key"] else {
            throw .invalidQuery("improper usage of \(name)")
        }
        try checkUserPointer(field, className, name)
        guard key == "objectId" else { throw .invalidQuery("anywall-server takes \(name) on user with the key objectId, not \(key)") }
        guard let whereJSON = query["where"] else { return .always }
        guard case .object(let users) = whereJSON else { throw .invalidQuery("improper usage of \(name)") }
        return try read(users, of: .users, depth: depth + 1)
    }

    private static func checkUserPointer(_ field: RecordField, _ className: String, _ name: String) throws(ParseError) {
        guard field == .user, className == RecordClass.users.rawValue else {
            throw .invalidQuery("anywall-server takes \(name) only on a post's user, with the class _User")
        }
    }

    /// A value to compare with: a string, number, boolean, null, Date or Pointer (its objectId).
    /// A date field also takes an ISO string, as Parse Server reads one for `createdAt`.
    private static func atom(_ json: JSONValue, for field: RecordField) throws(ParseError) -> FieldValue {
        switch json {
        case .string(let text):
            if field.builtInType == .date, let date = ParseDate.date(from: text) { return .date(date) }
            return .string(text)
        case .number(let number): return .number(number)
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        case .object(let object):
            switch object["__type"] {
            case .string("Date")?:
                guard case .string(let iso)? = object["iso"], let date = ParseDate.date(from: iso) else {
                    throw .invalidJSON("bad atom: \(json.javaScriptText)")
                }
                return .date(date)
            case .string("Pointer")?:
                guard case .string(let objectId)? = object["objectId"] else { throw .invalidJSON("bad atom: \(json.javaScriptText)") }
                // A pointer to another class than the field's points to nothing it holds.
                let pointsTo = field == .user ? RecordClass.users : field == .parent ? RecordClass.posts : nil
                return pointsTo.map { object["className"] != .string($0.rawValue) } == true ? .string("") : .string(objectId)
            default:
                throw .invalidQuery("anywall-server compares fields with strings, numbers, booleans, dates, pointers and null, not \(json.javaScriptText)")
            }
        case .array:
            throw .invalidQuery("anywall-server compares fields with strings, numbers, booleans, dates, pointers and null, not arrays")
        }
    }

    /// Parse Server's rule for a key in a where: a letter, then letters, digits, `_` and `.`.
    private static func isKeyName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
            return false
        }
        return key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "." }
    }
}

extension JSONValue {
    /// The value as JavaScript's `String(value)` writes it in Parse Server's messages (compact JSON here).
    public var javaScriptText: String {
        switch self {
        case .string(let text): return text
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return String(flag)
        case .null: return "null"
        default:
            return (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }
    }
}
