import Foundation
import ParseWire
import WallDomain

/// A find on `_User` as its query string asks it: `where` on the public fields (`objectId`,
/// `username`, `name`, `createdAt`, `updatedAt`), `skip`, `limit`, `count`. Users come in the
/// order they signed up; other parameters are refused with 102.
struct UserQuery {
    var condition = RecordCondition.always
    var skip = 0
    var limit = PostQuery.defaultLimit
    var count = false

    init(parameters: [(String, String)]) throws {
        for (name, text) in parameters {
            let value = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
            switch name {
            case "where":
                guard case .object(let fields) = value else { throw ParseRefusal.invalidQuery("where must be a JSON object") }
                condition = try WhereCondition.read(fields, of: .users)
            case "skip": skip = try PostQuery.whole(name, value, max: PostQuery.maxSkip)
            case "limit": limit = min(try PostQuery.whole(name, value, max: Int.max), PostQuery.maxLimit)
            case "count": count = PostQuery.truthy(value)
            // Users have no fields to choose among beyond those every answer carries.
            case "keys", "excludeKeys", "include": continue
            case "order": throw ParseRefusal.invalidQuery("anywall-server lists users in the order they signed up")
            default: throw ParseRefusal.invalidQuery("Invalid parameter for query: \(name)")
            }
        }
    }
}
