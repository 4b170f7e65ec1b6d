import Foundation
import Hummingbird
import ParseWire
import WallDomain

/// Parse's Roles API: `POST|GET /roles`, `GET|PUT|DELETE /roles/:id`. A role has a name, its
/// own ACL and its users (the `users` relation, changed with `AddRelation`/`RemoveRelation`);
/// ACLs name it `role:NAME`. Anyone reads roles; only the master key makes, changes or deletes
/// them, since a role decides who moderates. Roles within roles are not kept.
struct RoleRoutes {
    let wall: any WallStore
    let mount: String

    func register(on routes: RouterGroup<ParseContext>) {
        routes.post("roles") { request, context in
            let object = try await RequestBody.object(request, context)
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            try Self.checkFields(object)
            guard let nameJSON = object["name"] else { throw ParseRefusal(ParseErrorCode.incorrectType, "name is required.") }
            guard case .string(let name) = nameJSON else {
                throw ParseRefusal(ParseErrorCode.incorrectType, "schema mismatch for _Role.name; expected String")
            }
            guard let aclJSON = object["ACL"] else { throw ParseRefusal(ParseErrorCode.incorrectType, "ACL is required.") }
            let acl: ParseACL
            do {
                acl = try ParseACL(json: aclJSON)
                _ = try PostAccess(acl: acl.entries)
            } catch {
                throw ParseRefusal(ParseErrorCode.invalidACL, "Invalid ACL.")
            }
            let users = try Self.relation(object["users"])
            guard users.removing.isEmpty else { throw ParseRefusal(ParseErrorCode.invalidJSON, "a new role's users can only be added") }
            guard let role = try await wall.createRole(name: try Self.validName(name), acl: acl.entries, users: users.adding) else {
                throw ParseRefusal(ParseErrorCode.duplicateValue, "A duplicate value for a field with unique values was provided")
            }
            return ParseAnswer.created(["objectId": .string(role.objectId), "createdAt": ParseRendering.date(role.createdAt)],
                                       path: "\(mount)/roles/\(role.objectId)", request: request)
        }
        routes.get("roles") { request, context in
            var name: String?
            var objectId: String?
            var skip = 0
            var limit = PostQuery.defaultLimit
            for (parameter, text) in QueryParameters.of(request) {
                let value = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
                switch parameter {
                case "where":
                    guard case .object(let conditions) = value else { throw ParseRefusal.invalidJSON }
                    for (key, condition) in conditions {
                        guard case .string(let text) = condition else { throw ParseRefusal.invalidQuery("anywall-server finds roles by name or objectId, as strings") }
                        switch key {
                        case "name": name = text
                        case "objectId": objectId = text
                        default: throw ParseRefusal.invalidQuery("anywall-server finds roles by name or objectId, not \(key)")
                        }
                    }
                case "skip": skip = try PostQuery.whole(parameter, value, max: PostQuery.maxSkip)
                case "limit": limit = min(try PostQuery.whole(parameter, value, max: Int.max), PostQuery.maxLimit)
                default: throw ParseRefusal.invalidQuery("Invalid parameter for query: \(parameter)")
                }
            }
            let roles = try await wall.roles(name: name, objectId: objectId, skip: skip, limit: limit)
            return ParseAnswer.json(["results": .array(roles.map(Self.json))])
        }
        routes.get("roles/:objectId") { _, context in
            guard let role = try await wall.roles(name: nil, objectId: try context.parameters.require("objectId"), skip: 0, limit: 1).first else {
                throw ParseRefusal.objectNotFound
            }
            return ParseAnswer.json(Self.json(role))
        }
        routes.put("roles/:objectId") { request, context in
            let object = try await RequestBody.object(request, context)
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            try Self.checkFields(object)
            if object["name"] != nil {
                throw ParseRefusal(ParseErrorCode.invalidRoleName, "A role's name can only be set before it has been saved.")
            }
            guard object["ACL"] == nil else { throw ParseRefusal(ParseErrorCode.commandUnavailable, "anywall-server keeps a role's ACL as it was made") }
            let users = try Self.relation(object["users"])
            guard let role = try await wall.changeRoleUsers(try context.parameters.require("objectId"), adding: users.adding, removing: users.removing) else {
                throw ParseRefusal.objectNotFound
            }
            return ParseAnswer.json(["updatedAt": ParseRendering.date(role.updatedAt)])
        }
        routes.delete("roles/:objectId") { _, context in
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            guard try await wall.deleteRole(try context.parameters.require("objectId")) else { throw ParseRefusal.objectNotFound }
            return ParseAnswer.json([:])
        }
    }

    /// Refuses a field a role does not keep here: roles within roles among them.
    private static func checkFields(_ object: [String: JSONValue]) throws {
        if object["roles"] != nil {
            throw ParseRefusal(ParseErrorCode.commandUnavailable, "anywall-server keeps no roles within roles: a role holds users only")
        }
        if let name = object.keys.sorted().first(where: { !["name", "ACL", "users", "objectId", "createdAt", "updatedAt"].contains($0) }) {
            throw ParseRefusal(ParseErrorCode.commandUnavailable, "anywall-server keeps a role's name, ACL and users only, not \(name)")
        }
    }

    /// The users an `AddRelation` or `RemoveRelation` (or a `Batch` of both) names, by objectId.
    private static func relation(_ value: JSONValue?) throws -> (adding: [String], removing: [String]) {
        guard let value else { return ([], []) }
        guard case .object(let operation) = value, case .string(let name)? = operation["__op"] else {
            throw ParseRefusal(ParseErrorCode.incorrectType, "schema mismatch for _Role.users; expected Relation<_User>")
        }
        if name == "Batch" {
            guard case .array(let operations)? = operation["ops"] else { throw ParseRefusal(ParseErrorCode.invalidJSON, "ops must be an array") }
            var result: (adding: [String], removing: [String]) = ([], [])
            for each in operations {
                guard case .object(let inner) = each, inner["__op"] != .string("Batch") else { throw ParseRefusal(ParseErrorCode.invalidJSON, "bad ops") }
                let part = try relation(each)
                result.adding += part.adding
                result.removing += part.removing
            }
            return result
        }
        guard name == "AddRelation" || name == "RemoveRelation", case .array(let objects)? = operation["objects"] else {
            throw ParseRefusal(ParseErrorCode.invalidJSON, "a role's users change by AddRelation or RemoveRelation, with objects")
        }
        guard objects.count <= WhereCondition.maxValues else {
            throw ParseRefusal(ParseErrorCode.invalidJSON, "at most \(WhereCondition.maxValues) users a request")
        }
        let ids = try objects.map { object in
            guard let pointer = try? ParsePointer(json: object), pointer.className == RecordClass.users.rawValue else {
                throw ParseRefusal(ParseErrorCode.incorrectType, "a role's users are Pointers to _User")
            }
            return pointer.objectId
        }
        return name == "AddRelation" ? (ids, []) : ([], ids)
    }

    /// A role's name, refused as Parse's SDKs refuse it.
    private static func validName(_ name: String) throws -> String {
        do {
            return try RoleName.validated(name)
        } catch {
            throw ParseRefusal(ParseErrorCode.invalidRoleName, error.reason)
        }
    }

    /// A role as Parse returns it, with its two relations' placeholders.
    static func json(_ role: StoredRole) -> JSONValue {
        .object([
            "objectId": .string(role.objectId), "name": .string(role.name), "ACL": ParseACL(role.acl).json,
            "users": .object(["__type": .string("Relation"), "className": .string(RecordClass.users.rawValue)]),
            "roles": .object(["__type": .string("Relation"), "className": .string("_Role")]),
            "createdAt": ParseRendering.date(role.createdAt), "updatedAt": ParseRendering.date(role.updatedAt),
        ])
    }
}
