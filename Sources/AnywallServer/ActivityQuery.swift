import Foundation
import ParseWire
import WallDomain

/// A find on `Activity` as its query string asks it: `where` on `objectId`, `type`, `post`,
/// `fromUser`, `toUser` (a value, or `$in` for `type` and `post`) and `createdAt` (`$gt`), one
/// level of `$or`, and `post` `$select`ed as the threads a user replied in (the activity feed's
/// query); `order` newest first, `skip`, `limit`, and `include` of `post` and `reply` (with their
/// `user`). Anything else is refused with 102, as Parse refuses what it cannot run.
struct ActivityQuery {
    var filter = ActivityFilter()
    var skip = 0
    var limit = PostQuery.defaultLimit
    /// Whether the rows' posts and replies come whole, and with their authors whole.
    var includesPosts = false
    var includesAuthors = false
    /// The most values of one `$in`: a page's worth of posts, and a bounded statement.
    static let maxValues = PostQuery.maxLimit
    /// The most alternatives of the `$or`.
    static let maxAlternatives = 16

    init(parameters: [(String, String)]) throws {
        for (name, text) in parameters {
            switch name {
            case "where":
                guard case .object(let conditions)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                    throw ParseRefusal.invalidJSON
                }
                filter = try Self.filter(conditions, nested: false)
            case "order":
                guard text == "-createdAt" else { throw ParseRefusal.invalidQuery("anywall-server orders Activity by -createdAt only") }
            case "skip": skip = try PostQuery.whole(name, Self.json(text), max: PostQuery.maxSkip)
            case "limit": limit = min(try PostQuery.whole(name, Self.json(text), max: Int.max), PostQuery.maxLimit)
            case "include":
                for path in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    switch path {
                    case "post", "reply": includesPosts = true
                    case "post.user", "reply.user": (includesPosts, includesAuthors) = (true, true)
                    default: throw ParseRefusal.invalidQuery("anywall-server includes an Activity's post and reply (and their user) only, not \(path)")
                    }
                }
            default: throw ParseRefusal.invalidQuery("Invalid parameter for query: \(name)")
            }
        }
    }

    private static func json(_ text: String) -> JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
    }

    private static func filter(_ conditions: [String: JSONValue], nested: Bool) throws -> ActivityFilter {
        var filter = ActivityFilter()
        for (key, value) in conditions.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "$or" where !nested:
                guard case .array(let alternatives) = value, !alternatives.isEmpty, alternatives.count <= maxAlternatives else {
                    throw ParseRefusal.invalidQuery("anywall-server takes $or on Activity with 1 to \(maxAlternatives) alternatives")
                }
                filter.alternatives = try alternatives.map { alternative in
                    guard case .object(let inner) = alternative else { throw ParseRefusal.invalidQuery("Bad $or format - use an array value.") }
                    return try Self.filter(inner, nested: true)
                }
            case "objectId":
                guard case .string(let objectId) = value else { throw ParseRefusal.invalidQuery("anywall-server finds an Activity by its objectId as a string") }
                filter.objectId = objectId
            case "type":
                filter.kinds = Set(try values(value).map { value in
                    guard case .string(let text) = value else { throw ParseRefusal.invalidQuery("an Activity's type is a string") }
                    // A type no row has matches no row, as Parse answers it.
                    return StoredActivity.Kind(rawValue: text)
                }.compactMap { $0 })
            case "post":
                if case .object(let object) = value, let selection = object["$select"] {
                    filter.inThreadsRepliedBy = try threadsRepliedBy(selection)
                } else {
                    filter.posts = Set(try values(value).map { try ActivityRoutes.pointer($0, to: "Posts", field: key) ?? "" })
                }
            case "fromUser":
                filter.fromUser = try ActivityRoutes.pointer(value, to: RecordClass.users.rawValue, field: key)
            case "toUser":
                filter.toUser = try ActivityRoutes.pointer(value, to: RecordClass.users.rawValue, field: key)
            case "createdAt":
                guard case .object(let object) = value, object.count == 1, let bound = object["$gt"] else {
                    throw ParseRefusal.invalidQuery("anywall-server takes $gt on an Activity's createdAt")
                }
                guard let fields = bound.fields, fields["__type"] == .string("Date"), let iso = fields["iso"]?.text, let date = ParseDate.date(from: iso) else {
                    throw ParseRefusal.invalidJSON
                }
                filter.after = date
            default:
                throw ParseRefusal.invalidQuery("anywall-server finds Activity rows by objectId, type, post, fromUser, toUser and createdAt only, not \(key)")
            }
        }
        return filter
    }

    /// The user of `{"query": {"className": "Posts", "where": {"user": <Pointer>, "parent":
    /// {"$exists": true}}}, "key": "parent"}`: the threads that user replied in, the one `$select`
    /// on an Activity's post anywall-server runs.
    private static func threadsRepliedBy(_ selection: JSONValue) throws -> String {
        let refusal = ParseRefusal.invalidQuery(
            "anywall-server takes $select on an Activity's post only as the threads a user replied in: a Posts query on user and parent $exists true, key parent")
        guard let fields = selection.fields, fields["key"] == .string("parent"), let query = fields["query"]?.fields,
              query["className"] == .string("Posts"), let conditions = query["where"]?.fields, conditions.count == 2,
              conditions["parent"] == .object(["$exists": .bool(true)]), let user = conditions["user"],
              let userId = try? ActivityRoutes.pointer(user, to: RecordClass.users.rawValue, field: "user") else { throw refusal }
        return userId
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
