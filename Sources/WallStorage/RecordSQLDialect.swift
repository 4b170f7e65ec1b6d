import WallDomain

/// How a store spells the SQL that `RecordConditionSQL` writes for it: where its tables differ
/// and what its SQL lacks in common with the other store's.
public protocol RecordSQLDialect: Sendable {
    /// The engine, which names the tables and columns and spells placeholders and text functions.
    var engine: SQLEngine { get }
    /// The expression of the post field a client added, read as `type`.
    func extraField(_ name: String, as type: FieldType) -> String
    /// Whether the post's added array field `name` holds the value at `placeholder`, `value`, as
    /// an element of its JSON type (`"5"` is not `5`, nor `true` `1`).
    func arrayContains(_ name: String, _ placeholder: String, holding value: FieldValue) -> String
    /// Whether `expression` matches `pattern`, whose text is at `placeholder`.
    func matches(_ expression: String, _ pattern: TextPattern, placeholder: String) -> String
}

extension RecordSQLDialect {
    /// The tables and columns of posts, users and roles.
    public var columns: RecordColumns { engine.columns }

    /// The expression of a field of `recordClass`; text compared and sorted byte by byte.
    public func column(_ field: RecordField, of recordClass: RecordClass) -> String {
        columns.column(field, of: recordClass) { extraField($0, as: .string) }
    }

    /// The post's list of readers, as `PostAccess.storedReaders` writes it (NULL: everyone).
    public var readersColumn: String { "\(columns.posts).readers" }

    /// Why the post was removed (NULL: it was not), as `PostRemoval` names it.
    public var removedColumn: String { "\(columns.posts).removed" }

    /// The `number`-th placeholder, from 1.
    func placeholder(_ number: Int) -> String { engine.numbersPlaceholders ? "$\(number)" : "?" }

    /// A boolean literal.
    func literal(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    /// Whether the text `list` holds the text at `placeholder`.
    func contains(_ list: String, _ placeholder: String) -> String { "\(engine.textPositionFunction)(\(list), \(placeholder)) > 0" }

    /// A sort term on `expression`, a missing value first in ascending order and last in descending,
    /// as Parse sorts (SQLite's own default, spelled out for PostgreSQL's, which is the reverse).
    func sortTerm(_ expression: String, descending: Bool) -> String {
        expression + (descending ? " DESC NULLS LAST" : " ASC NULLS FIRST")
    }

    /// Whether the post's author is among the users for whom `condition` holds.
    func authorAmong(usersWhere condition: String) -> String {
        "\(columns.posts).\(columns.author) IN (SELECT \(columns.users).id FROM \(columns.users) WHERE \(condition))"
    }
}
