import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// A find on Posts as its query string asks it: `where`, `order`, `skip`, `limit`, `count`,
/// `keys`, `excludeKeys`, `include`. Each parameter is read as JSON when it parses as JSON (as
/// Parse Server reads them); unknown parameters are refused with 102, as Parse refuses them.
package struct PostQuery: Sendable {
    /// Parse's default page.
    static let defaultLimit = 100
    /// The largest page and the deepest skip this server serves, so one request stays cheap.
    static let maxLimit = 1000
    static let maxSkip = 10_000

    var filter = WhereClause()
    var order: [PostOrder] = []
    var skip = 0
    var limit = defaultLimit
    var count = false
    var keys: Set<String>?
    var excludeKeys: Set<String> = []
    var includeUser = false
    /// Whether a reply's thread post comes whole (`include=parent`), with its author whole too (`parent.user`).
    var includeParent = false
    var includeParentUser = false
    /// Who asks: the posts whose ACL they may read. Set by the route from the caller.
    var reader = PostReader.user(nil)
    /// Whether the reader holds the role moderators, when `PostSearch` asks it: set by the route.
    var readerModerates = false

    /// Parameters Parse Server takes that this server does not.
    private static let unsupported: Set<String> = ["readPreference", "includeReadPreference", "subqueryReadPreference",
                                                   "hint", "explain", "comment", "redirectClassNameForKey"]

    package init(parameters: [(String, String)]) throws {
        for (name, text) in parameters {
            // Read as JSON only where a value is one: decoding text that is not JSON costs a thrown error.
            var value: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text) }
            switch name {
            case "where": filter = try WhereClause(json: value)
            case "order": order = try Self.order(text)
            case "skip": skip = try Self.whole(name, value, max: Self.maxSkip)
            case "limit": limit = min(try Self.whole(name, value, max: Int.max), Self.maxLimit)
            case "count": count = Self.truthy(value)
            case "keys": keys = Self.names(text)
            case "excludeKeys": excludeKeys = Self.names(text)
            case "include":
                let names = Self.names(text)
                includeUser = names.contains { $0 == "user" || $0 == "*" }
                includeParentUser = names.contains("parent.user")
                includeParent = includeParentUser || names.contains { $0 == "parent" || $0 == "*" }
            default:
                throw ParseRefusal.invalidQuery(Self.unsupported.contains(name)
                    ? "anywall-server does not support \(name)" : "Invalid parameter for query: \(name)")
            }
        }
        // As Parse Server: a key inside a pointer (`user.username`) selects the pointer and includes its object.
        if let selected = keys {
            if selected.contains(where: { $0.hasPrefix("user.") }) { includeUser = true }
            keys = Set(selected.map { String($0.prefix { $0 != "." }) })
        }
    }

    private static func names(_ text: String) -> Set<String> {
        Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    private static func order(_ text: String) throws -> [PostOrder] {
        try text.split(separator: ",").map { term in
            let name = term.trimmingCharacters(in: .whitespaces)
            guard let key = PostOrder(parsing: Substring(name)) else {
                throw ParseRefusal(ParseErrorCode.invalidKeyName, "Invalid field name: \(name.hasPrefix("-") ? String(name.dropFirst()) : name).")
            }
            return key
        }
    }

    /// A count of objects: a whole number from 0 to `max` (Parse takes `Number(value)`).
    static func whole(_ name: String, _ value: JSONValue, max: Int) throws -> Int {
        // Int(exactly:) and not Int(_:): 2^63 and beyond are refused here, where Int(_:) would trap.
        guard case .number(let number) = value, number >= 0, let whole = Int(exactly: number), whole <= max else {
            throw ParseRefusal.invalidQuery(max == Int.max ? "Invalid parameter for query: \(name)"
                                            : "\(name) must be a whole number from 0 to \(max)")
        }
        return whole
    }

    static func truthy(_ value: JSONValue) -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .number(let number): return number != 0
        case .string(let text): return !text.isEmpty && text != "false" && text != "0"
        default: return false
        }
    }
}
