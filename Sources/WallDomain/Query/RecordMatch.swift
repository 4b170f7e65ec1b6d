import Foundation

/// A `RecordCondition` tested on one post in memory, with the answer the stores give (each
/// translates the condition for its database, once for both in WallStorage): the live path's half
/// of the one matcher, so that a subscription admits exactly the posts a REST find with the same
/// condition returns. Values are read and compared as the stores read them: text byte by byte
/// (UTF-8, as both stores' binary collations), built-in dates to the millisecond, added dates by
/// their ISO text (which the server writes in one form, `ParseDate`'s, so that it orders as the
/// instants), booleans as 0 and 1, a field the schema lacks as missing, a value of another type
/// than the field's as equal to nothing.
public struct RecordMatch: Sendable {
    public let condition: RecordCondition
    /// How its `$regex`es are tested, within a bound on their cost.
    private let patterns: any TextPatternMatcher

    /// The match of `condition`; nil for one that asks what only a store knows
    /// (`RecordCondition.isLiveMatchable`).
    public init?(_ condition: RecordCondition, patterns: any TextPatternMatcher) {
        guard condition.isLiveMatchable else { return nil }
        self.condition = condition
        self.patterns = patterns
    }

    /// Whether `post` meets the condition, its added fields read by `schema` (the types of the
    /// fields clients added to posts, as a find reads them now), for a reader who holds the roles
    /// named `readerRoles` (what `.readable(by:)` asks of the post's ACL and removal).
    public func admits(_ post: StoredPost, schema: [String: FieldType], readerRoles: Set<String> = []) -> Bool {
        Evaluation(schema: schema, readerRoles: readerRoles, patterns: patterns).holds(condition, on: .post(post))
    }
}

extension RecordCondition {
    /// Whether `RecordMatch` can test the condition without a store: all but `holdsRole`, whose
    /// answer (who holds a role) only the store keeps. A live subscription with it is refused
    /// rather than left never matching.
    public var isLiveMatchable: Bool {
        switch self {
        case .all(let parts), .any(let parts): return parts.allSatisfy(\.isLiveMatchable)
        case .not(let part), .authorAmong(let part): return part.isLiveMatchable
        case .holdsRole: return false
        case .compare, .among, .exists, .matches, .readable: return true
        }
    }
}

/// One test of a condition: the schema and the reader's roles it reads with.
private struct Evaluation {
    let schema: [String: FieldType]
    let readerRoles: Set<String>
    let patterns: any TextPatternMatcher

    /// What a condition is asked of: a post, or its author inside `authorAmong`.
    enum Record {
        case post(StoredPost)
        case user(StoredUser)
    }

    /// Whether the condition holds, as a store keeps a row: an unknown (a missing field's) counts
    /// as not holding, which is also what the stores' negation makes of it, so two values suffice.
    func holds(_ condition: RecordCondition, on record: Record) -> Bool {
        switch condition {
        case .all(let parts): return parts.allSatisfy { holds($0, on: record) }
        case .any(let parts): return parts.contains { holds($0, on: record) }
        case .not(let part): return !holds(part, on: record)
        case .compare(let field, let comparison, let value):
            guard let type = type(of: field, in: record) else { return value == .null && comparison == .equal }
            if value == .null { return comparison == .equal && stored(field, as: type, in: record) == nil }
            if type == .array {
                // A value on an array field asks whether the array holds it, as in Parse (MongoDB).
                return comparison == .equal && value.isScalar && array(field, in: record).contains { Self.element($0, is: value) }
            }
            guard value.fits(type), let held = stored(field, as: type, in: record), let asked = StoredValue(value, for: field) else { return false }
            return comparison.holds(held, asked)
        case .among(let field, let list):
            guard let type = type(of: field, in: record) else { return list.contains(.null) }
            let held = stored(field, as: type, in: record)
            if list.contains(.null), held == nil { return true }
            if type == .array {
                let elements = array(field, in: record)
                return list.contains { value in value.isScalar && elements.contains { Self.element($0, is: value) } }
            }
            guard let held else { return false }
            return list.contains { $0.fits(type) && StoredValue($0, for: field) == held }
        case .exists(let field):
            guard let type = type(of: field, in: record) else { return false }
            return stored(field, as: type, in: record) != nil
        case .matches(let field, let pattern):
            guard type(of: field, in: record) == .string, case .text(let text)? = stored(field, as: .string, in: record) else { return false }
            return patterns.matches(text, pattern)
        case .authorAmong(let users):
            guard case .post(let post) = record, let author = post.author else { return false }
            return holds(users, on: .user(author))
        case .readable(let reader):
            guard case .post(let post) = record, post.access.mayRead(reader, roles: readerRoles) else { return false }
            // A post the community or a moderator removed is read by its author and the moderators alone.
            guard post.removed != nil else { return true }
            return reader != nil && (post.author?.objectId == reader || readerRoles.contains(RoleName.moderators))
        case .holdsRole:
            // Never reached: `RecordMatch` refuses it.
            return false
        }
    }

    /// The field's type; nil for one the record's class or the schema lacks (a store reads nothing).
    private func type(of field: RecordField, in record: Record) -> FieldType? {
        if let type = field.builtInType { return type }
        guard case .extra(let name) = field, case .post = record else { return nil }
        return schema[name]
    }

    /// The field's value as a store reads it as `type`; nil where a store reads nothing.
    private func stored(_ field: RecordField, as type: FieldType, in record: Record) -> StoredValue? {
        switch (record, field) {
        case (.post(let post), .objectId): return .text(post.objectId)
        case (.post(let post), .createdAt): return .date(post.createdAt)
        case (.post(let post), .updatedAt): return .date(post.updatedAt)
        case (.post(let post), .text): return .text(post.text)
        case (.post(let post), .user): return post.author.map { .text($0.objectId) }
        case (.post(let post), .parent): return post.parent.map(StoredValue.text)
        case (.post(let post), .score): return .number(Double(post.score))
        case (.post(let post), .replyCount): return .number(Double(post.replyCount))
        case (.post(let post), .reportCount): return .number(Double(post.reportCount))
        case (.post(let post), .removed): return post.removed.map { .text($0.rawValue) }
        case (.post(let post), .extra(let name)):
            guard let value = post.fields[name] else { return nil }
            // A date's and a Pointer's inner value, as each store's `extraField` reads them.
            switch type {
            case .date: return StoredValue(json: value.member("iso"))
            case .pointer: return StoredValue(json: value.member("objectId"))
            default: return StoredValue(json: value)
            }
        case (.user(let user), .objectId): return .text(user.objectId)
        case (.user(let user), .createdAt), (.user(let user), .updatedAt): return .date(user.createdAt)
        case (.user(let user), .username): return .text(user.username)
        case (.user(let user), .name): return user.name.map(StoredValue.text)
        // Fields of the other class, which a query never names (`RecordField.init`).
        case (.post, .username), (.post, .name), (.user, _): return nil
        }
    }

    /// The elements of an added array field; none when it is missing or not an array.
    private func array(_ field: RecordField, in record: Record) -> [JSONValue] {
        guard case .post(let post) = record, case .extra(let name) = field, case .array(let elements)? = post.fields[name] else { return [] }
        return elements
    }

    /// Whether an array's element is the scalar `value`, of its JSON type: `"5"` is not `5`, nor
    /// `true` `1` (PostgreSQL's `@>`, and SQLite's `json_each` with its element's type).
    private static func element(_ element: JSONValue, is value: FieldValue) -> Bool {
        switch (element, value) {
        case (.string(let held), .string(let asked)): return held.utf8.elementsEqual(asked.utf8)
        case (.number(let held), .number(let asked)): return held == asked
        case (.bool(let held), .bool(let asked)): return held == asked
        default: return false
        }
    }
}

/// A value as the stores hold it: a number (booleans as 0 and 1), text (compared byte by
/// byte), or an instant (a built-in date, kept to the millisecond).
private enum StoredValue: Equatable {
    case number(Double)
    case text(String)
    case date(Date)

    /// A value a query compares `field` with: an added field's date as its ISO text, as it is
    /// kept; nil for null, which asks whether the field is missing instead.
    init?(_ value: FieldValue, for field: RecordField) {
        switch value {
        case .string(let text): self = .text(text)
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .number(flag ? 1 : 0)
        case .date(let date):
            if case .extra = field { self = .text(ParseDate.string(from: date)) } else { self = .date(date) }
        case .null: return nil
        }
    }

    /// An added field's JSON as SQLite's `json_extract` reads it; nil for null or nothing.
    init?(json: JSONValue?) {
        switch json {
        case nil, .null?: return nil
        case .string(let text)?: self = .text(text)
        case .number(let number)?: self = .number(number)
        case .bool(let flag)?: self = .number(flag ? 1 : 0)
        // An object or array is its JSON text to a store: there, but equal to no value a query asks.
        case .array?, .object?: self = .text((try? JSONEncoder().encode(json)).map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
    }

    static func == (a: StoredValue, b: StoredValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x == y
        case (.text(let x), .text(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.date(let x), .date(let y)): return milliseconds(x) == milliseconds(y)
        default: return false
        }
    }

    /// SQLite's order: within a kind by value, text byte by byte; numbers before text.
    static func < (a: StoredValue, b: StoredValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x < y
        case (.text(let x), .text(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.date(let x), .date(let y)): return milliseconds(x) < milliseconds(y)
        case (.number, .text): return true
        default: return false
        }
    }

    /// The whole milliseconds the stores keep a date to, as the embedded store rounds a date it binds.
    private static func milliseconds(_ date: Date) -> Double {
        (date.timeIntervalSince1970 * 1000).rounded()
    }
}

private extension RecordCondition.Comparison {
    func holds(_ held: StoredValue, _ asked: StoredValue) -> Bool {
        switch self {
        case .equal: return held == asked
        case .less: return held < asked
        case .lessOrEqual: return held < asked || held == asked
        case .greater: return asked < held
        case .greaterOrEqual: return asked < held || held == asked
        }
    }
}

private extension JSONValue {
    /// The member `name` of an object; nil for anything else (a store's path into it reads nothing).
    func member(_ name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[name]
    }
}
