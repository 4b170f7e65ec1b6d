import Foundation
import ParseWire
import WallDomain

/// A find on `Activity` as its query string asks it: `where` on `objectId`, `type`, `post`,
/// `fromUser` and `toUser` (a value, or `$in` for `type` and `post`), `order` newest first,
/// `skip` and `limit`. Anything else is refused with 102, as Parse refuses what it cannot run.
struct ActivityQuery {
    var filter = ActivityFilter()
    var skip = 0
    var limit = PostQuery.defaultLimit
    /// The most values of one `$in`: a page's worth of posts, and a bounded statement.
    static let maxValues = PostQuery.maxLimit

    init(parameters: [(String, String)]) throws {
        for (name, text) in parameters {
            switch name {
            case "where":
                guard case .object(let conditions)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                    throw ParseRefusal.invalidJSON
                }
                for (key, value) in conditions { try read(key, value) }
            case "order":
                guard text == "-createdAt" else { throw ParseRefusal.invalidQuery("anywall-server orders Activity by -createdAt only") }
            case "skip": skip = try PostQuery.whole(name, Self.json(text), max: PostQuery.maxSkip)
            case "limit": limit = min(try PostQuery.whole(name, Self.json(text), max: Int.max), PostQuery.maxLimit)
            default: throw ParseRefusal.invalidQuery("Invalid parameter for query: \(name)")
            }
        }
    }

    private static func json(_ text: String) -> JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
    }

    private mutating func read(_ key: String, _ value: JSONValue) throws {
        switch key {
        case "objectId":
            guard case .string(let objectId) = value else { throw ParseRefusal.invalidQuery("anywall-server finds an Activity by its objectId as a string") }
            filter.objectId = objectId
        case "type":
            filter.kinds = Set(try Self.values(value).map { value in
                guard case .string(let text) = value else { throw ParseRefusal.invalidQuery("an Activity's type is a string") }
                // A type no row has matches no row, as Parse answers it.
                return StoredActivity.Kind(rawValue: text)
            }.compactMap { $0 })
        case "post":
            filter.posts = Set(try Self.values(value).map { try ActivityRoutes.pointer($0, to: "Posts", field: key) ?? "" })
        case "fromUser":
            filter.fromUser = try ActivityRoutes.pointer(value, to: RecordClass.users.rawValue, field: key)
        case "toUser":
            filter.toUser = try ActivityRoutes.pointer(value, to: RecordClass.users.rawValue, field: key)
        default:
            throw ParseRefusal.invalidQuery("anywall-server finds Activity rows by objectId, type, post, fromUser and toUser only, not \(key)")
        }
    }

    /// A value, or the values of `{"$in": [...]}`.
    private static func values(_ value: JSONValue) throws -> [JSONValue] {
        guard case .object(let object) = value, object["__type"] == nil else { return [value] }
        guard object.count == 1, case .array(let values)? = object["$in"] else {
            throw ParseRefusal.invalidQuery("anywall-server takes a value or $in on an Activity's type and post")
        }
        guard values.count <= maxValues else { throw ParseRefusal.invalidQuery("$in takes at most \(maxValues) values on Activity") }
        return values
    }
}
