import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// Parse's schemas API, master key only: `GET /schemas` (every class), `GET /schemas/:className`,
/// `POST` (the Posts and _User classes always exist here, so creating one answers 103 as Parse
/// does for an existing class; no other class can be made) and `PUT /schemas/Posts`, which adds
/// fields to Posts or deletes them (`{"__op":"Delete"}`, their values with them).
struct SchemaRoutes {
    let wall: any WallStore

    func register(on routes: RouterGroup<ParseContext>) {
        routes.get("schemas") { _, context in
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            return ParseAnswer.json(["results": .array([try await postsSchema(), .object(Self.usersSchema)])])
        }
        routes.get("schemas/Posts") { _, context in
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            return ParseAnswer.json(try await postsSchema().fields ?? [:])
        }
        routes.get("schemas/:className") { _, context in
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            let name = try context.parameters.require("className")
            guard name == RecordClass.users.rawValue else { throw ParseRefusal(ParseErrorCode.invalidClassName, "Class \(name) does not exist.") }
            return ParseAnswer.json(Self.usersSchema)
        }
        routes.put("schemas/Posts") { request, context in
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            let body = try await RequestBody.object(request, context)
            if let named = body["className"]?.string, named != "Posts" {
                throw ParseRefusal(ParseErrorCode.invalidClassName, "Class name mismatch between \(named) and Posts.")
            }
            // Refused, never silently ignored: a client that sent them would believe them in force.
            if let permissions = body["classLevelPermissions"], permissions != .null, permissions != Self.postsSchema["classLevelPermissions"] {
                throw ParseRefusal(ParseErrorCode.operationForbidden, "anywall-server keeps Posts' class-level permissions as GET /schemas/Posts gives them")
            }
            if case .object(let indexes)? = body["indexes"], !indexes.isEmpty {
                throw ParseRefusal(ParseErrorCode.operationForbidden, "anywall-server keeps its own indexes on Posts")
            }
            try await updateFields(body["fields"])
            return ParseAnswer.json(try await postsSchema().fields ?? [:])
        }
        // "schemas/Posts" is spelled out: the router looks no further than a literal segment it matched.
        for path in ["schemas", "schemas/Posts", "schemas/:className"] {
            routes.post(RouterPath(path)) { request, context -> Response in
                guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
                let body = try await RequestBody.object(request, context)
                let named = context.parameters.get("className") ?? body["className"]?.string
                guard let named, named == "Posts" || named == RecordClass.users.rawValue else {
                    throw ParseRefusal(ParseErrorCode.operationForbidden, "anywall-server keeps only the Posts and _User classes")
                }
                throw ParseRefusal(ParseErrorCode.invalidClassName, "Class \(named) already exists.")
            }
        }
    }

    /// Adds the fields `{"name": {"type": "Number"}}` names to Posts and deletes those set to
    /// `{"__op": "Delete"}`, with Parse Server's refusals.
    private func updateFields(_ json: JSONValue?) async throws {
        guard let json else { return }
        guard case .object(let fields) = json else { throw ParseRefusal(ParseErrorCode.invalidJSON, "fields must be an object") }
        let schema = try await wall.postSchema()
        var added: [String: FieldType] = [:]
        var deleted: Set<String> = []
        for name in fields.keys.sorted() {
            let field = fields[name]!
            if field.fields?["__op"] == .string("Delete") {
                // Parse's 136 for a field its class cannot lose (Anywall's own, and Parse's).
                guard !RecordClass.posts.reservedNames.contains(name) else { throw ParseRefusal(136, "field \(name) cannot be changed") }
                guard schema.types[name] != nil else { throw ParseRefusal(255, "Field \(name) does not exist, cannot delete.") }
                deleted.insert(name)
                continue
            }
            guard FieldType.isFieldName(name), !RecordClass.posts.reservedNames.contains(name) || schema.types[name] != nil else {
                if RecordClass.posts.reservedNames.contains(name) { throw ParseRefusal(255, "Field \(name) exists, cannot update.") }
                throw ParseRefusal(ParseErrorCode.invalidKeyName, "invalid field name: \(name)")
            }
            guard schema.types[name] == nil else { throw ParseRefusal(255, "Field \(name) exists, cannot update.") }
            guard case .string(let typeName)? = field.fields?["type"], let type = FieldType(rawValue: typeName) else {
                throw ParseRefusal(ParseErrorCode.incorrectType, "invalid field type: \(field.fields?["type"]?.javaScriptText ?? "undefined")")
            }
            guard type != .pointer else { throw ParseRefusal(ParseErrorCode.incorrectType, "anywall-server adds no Pointer fields by schema") }
            added[name] = type
        }
        try await wall.changePostFields(adding: added, deleting: deleted)
    }

    /// The Posts class with the fields clients added.
    private func postsSchema() async throws -> JSONValue {
        var schema = Self.postsSchema
        guard case .object(var fields)? = schema["fields"] else { return .object(schema) }
        for (name, type) in try await wall.postSchema().types { fields[name] = .object(["type": .string(type.rawValue)]) }
        schema["fields"] = .object(fields)
        return .object(schema)
    }

    /// The _User class as anywall-server keeps it: its public fields and the password (never returned).
    private static let usersSchema: [String: JSONValue] = [
        "className": .string(RecordClass.users.rawValue),
        "fields": .object([
            "objectId": .object(["type": .string("String")]), "createdAt": .object(["type": .string("Date")]),
            "updatedAt": .object(["type": .string("Date")]), "ACL": .object(["type": .string("ACL")]),
            "username": .object(["type": .string("String")]), "password": .object(["type": .string("String")]),
            "name": .object(["type": .string("String")]),
        ]),
        "classLevelPermissions": .object([
            "find": .object(["*": .bool(true)]), "count": .object(["*": .bool(true)]), "get": .object(["*": .bool(true)]),
            "create": .object(["*": .bool(true)]), "update": .object(["*": .bool(true)]), "delete": .object(["*": .bool(true)]),
            "addField": .object([:]), "protectedFields": .object(["*": .array([])]),
        ]),
    ]

    /// The Posts class as Parse Server describes it: default fields, anywall's, and its
    /// class-level permissions (anyone finds and reads; signed-in users create).
    private static let postsSchema: [String: JSONValue] = {
        func field(_ type: String, _ target: String? = nil) -> JSONValue {
            var field: [String: JSONValue] = ["type": .string(type)]
            if let target { field["targetClass"] = .string(target) }
            return .object(field)
        }
        let everyone: JSONValue = .object(["*": .bool(true)])
        let signedIn: JSONValue = .object(["requiresAuthentication": .bool(true)])
        return [
            "className": .string("Posts"),
            "fields": .object([
                "objectId": field("String"), "createdAt": field("Date"), "updatedAt": field("Date"), "ACL": field("ACL"),
                "text": field("String"), "location": field("GeoPoint"), "user": field("Pointer", "_User"),
            ]),
            "classLevelPermissions": .object([
                "find": everyone, "count": everyone, "get": everyone, "create": signedIn, "update": signedIn,
                "delete": signedIn, "addField": .object([:]), "protectedFields": .object(["*": .array([])]),
            ]),
        ]
    }()
}
