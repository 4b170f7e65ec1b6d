import Foundation
import WallDomain

/// A `RecordCondition` as one store's SQL: the one translation of the query language, written
/// with the store's `RecordSQLDialect`, its values bound in order at the dialect's placeholders.
/// A post field the schema does not have is NULL: it equals nothing, as a missing field in Parse.
public struct RecordConditionSQL<Dialect: RecordSQLDialect> {
    /// The values to bind, in the order of their placeholders. Dates of built-in fields stay
    /// dates (each store binds its own); dates of added fields are their ISO text, as kept.
    public private(set) var values: [FieldValue] = []
    private let dialect: Dialect
    /// The types of the fields clients added to posts.
    private let schema: [String: FieldType]
    private var recordClass: RecordClass
    /// How many values the statement binds before this condition's.
    private let placeholdersBefore: Int

    public init(dialect: Dialect, recordClass: RecordClass, schema: [String: FieldType], placeholdersBefore: Int = 0) {
        self.dialect = dialect
        self.recordClass = recordClass
        self.schema = schema
        self.placeholdersBefore = placeholdersBefore
    }

    /// The SQL of `condition`, its values appended to `values`.
    public mutating func sql(_ condition: RecordCondition) -> String {
        switch condition {
        case .all(let parts):
            return parts.isEmpty ? dialect.literal(true) : Self.balanced(parts.map { sql($0) }, "AND")
        case .any(let parts):
            return parts.isEmpty ? dialect.literal(false) : Self.balanced(parts.map { sql($0) }, "OR")
        case .not(let part):
            return "NOT coalesce(\(sql(part)), \(dialect.literal(false)))"
        case .compare(let field, let comparison, let value):
            guard let (expression, type) = typed(field) else { return value == .null && comparison == .equal ? dialect.literal(true) : "NULL" }
            if value == .null { return comparison == .equal ? "\(expression) IS NULL" : dialect.literal(false) }
            if type == .array, case .extra(let name) = field {
                // A value on an array field asks whether the array holds it, as in Parse (MongoDB).
                guard comparison == .equal, value.isScalar else { return dialect.literal(false) }
                return dialect.arrayContains(name, bind(value, for: field), holding: value)
            }
            guard value.fits(type) else { return dialect.literal(false) }
            return "\(expression) \(comparison.rawValue) \(bind(value, for: field))"
        case .among(let field, let list):
            guard let (expression, type) = typed(field) else { return list.contains(.null) ? dialect.literal(true) : "NULL" }
            if type == .array, case .extra(let name) = field {
                var held = list.filter(\.isScalar).map { dialect.arrayContains(name, bind($0, for: field), holding: $0) }
                // null in the list admits a post without the field, as on a field of any other type.
                if list.contains(.null) { held.append("\(expression) IS NULL") }
                return held.isEmpty ? dialect.literal(false) : Self.balanced(held, "OR")
            }
            let fitting = list.filter { $0 != .null && $0.fits(type) }
            var terms = fitting.isEmpty ? [] : ["\(expression) IN (" + fitting.map { bind($0, for: field) }.joined(separator: ", ") + ")"]
            if list.contains(.null) { terms.append("\(expression) IS NULL") }
            return terms.isEmpty ? dialect.literal(false) : "(" + terms.joined(separator: " OR ") + ")"
        case .exists(let field):
            guard let (expression, _) = typed(field) else { return dialect.literal(false) }
            return "\(expression) IS NOT NULL"
        case .matches(let field, let pattern):
            guard let (expression, type) = typed(field), type == .string else { return dialect.literal(false) }
            return dialect.matches(expression, pattern, placeholder: bind(.string(pattern.pattern), for: field))
        case .authorAmong(let users):
            let outer = recordClass
            recordClass = .users
            defer { recordClass = outer }
            return dialect.authorAmong(usersWhere: sql(users))
        case .readable(let reader):
            // A post the community or a moderator removed is read by its author and the moderators alone.
            guard let reader else { return "(\(dialect.readersColumn) IS NULL AND \(dialect.removedColumn) IS NULL)" }
            let entry = bind(.string(" \(reader) "), for: .objectId)
            let holder = bind(.string(reader), for: .objectId)
            let author = bind(.string(reader), for: .objectId)
            let moderator = bind(.string(reader), for: .objectId)
            return "((\(dialect.readersColumn) IS NULL OR \(dialect.contains(dialect.readersColumn, entry))"
                + " OR \(readersNameRoleOf(holder)))"
                + " AND (\(dialect.removedColumn) IS NULL OR \(dialect.column(.user, of: .posts)) = \(author)"
                + " OR \(moderates(moderator))))"
        case .holdsRole(let role):
            let tables = RoleTables(columns: dialect.columns)
            return "\(dialect.columns.users).id IN (SELECT \(tables.memberUser) FROM \(tables.membership)"
                + " WHERE \(tables.roleObjectId) = \(bind(.string(role), for: .objectId)))"
        }
    }

    /// Whether the post's readers name a role held by the user whose objectId is at `holder`.
    private func readersNameRoleOf(_ holder: String) -> String {
        let tables = RoleTables(columns: dialect.columns)
        return "EXISTS (SELECT 1 FROM \(tables.membership) WHERE \(tables.memberUser) = \(tables.userRow(holder))"
            + " AND \(dialect.contains(dialect.readersColumn, "' role:' || \(tables.roleName) || ' '")))"
    }

    /// Whether the user whose objectId is at `holder` holds the role `moderators`.
    private func moderates(_ holder: String) -> String {
        let tables = RoleTables(columns: dialect.columns)
        return "EXISTS (SELECT 1 FROM \(tables.membership) WHERE \(tables.roleName) = '\(RoleName.moderators)'"
            + " AND \(tables.memberUser) = \(tables.userRow(holder)))"
    }

    /// `terms` joined by `operation` in groups of a few, nested as a tree: a flat chain of a
    /// thousand terms (a long `$or`) nests a thousand deep as SQL parses it, past SQLite's limit
    /// on an expression's depth (1000); as a tree it nests a few dozen deep.
    static func balanced(_ terms: [String], _ operation: String) -> String {
        let group = 8
        guard terms.count > group else { return "(" + terms.joined(separator: " \(operation) ") + ")" }
        let size = (terms.count + group - 1) / group
        return balanced(stride(from: 0, to: terms.count, by: size).map { balanced(Array(terms[$0..<min($0 + size, terms.count)]), operation) },
                        operation)
    }

    /// The ORDER BY terms of `order`, without a key on a field the schema lacks (Parse drops it).
    public func sortTerms(_ order: [PostOrder]) -> [String] {
        order.compactMap { key in typed(key.field).map { dialect.sortTerm($0.0, descending: key.descending) } }
    }

    /// The field's expression and type; nil for a field the class's schema lacks.
    private func typed(_ field: RecordField) -> (String, FieldType)? {
        if let type = field.builtInType { return (dialect.column(field, of: recordClass), type) }
        guard case .extra(let name) = field, recordClass == .posts, let type = schema[name] else { return nil }
        return (dialect.extraField(name, as: type), type)
    }

    private mutating func bind(_ value: FieldValue, for field: RecordField) -> String {
        if case .extra = field, case .date(let date) = value {
            values.append(.string(ParseDate.string(from: date)))
        } else {
            values.append(value)
        }
        return dialect.placeholder(placeholdersBefore + values.count)
    }
}
