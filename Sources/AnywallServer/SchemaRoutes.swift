import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// `/schemas` for `anywall config init`: the Posts class always exists here, so creating it
/// answers 103 as Parse does for an existing class; no other class can be made. Master key only.
struct SchemaRoutes {
    func register(on routes: RouterGroup<ParseContext>) {
        routes.get("schemas/Posts") { _, context in
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            return ParseAnswer.json(Self.postsSchema)
        }
        // "schemas/Posts" is spelled out: the router looks no further than a literal segment it matched.
        for path in ["schemas", "schemas/Posts", "schemas/:className"] {
            routes.post(RouterPath(path)) { request, context -> Response in
                guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
                let body = try await RequestBody.object(request, context)
                let named = context.parameters.get("className") ?? body["className"]?.string
                guard named == "Posts" else {
                    throw ParseRefusal(ParseErrorCode.operationForbidden, "anywall-server keeps only the Posts class")
                }
                throw ParseRefusal(ParseErrorCode.invalidClassName, "Class Posts already exists.")
            }
        }
    }

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
