import WallDomain

/// How one store writes the parts of SQL that differ between stores, for `RecordConditionSQL`.
public protocol RecordSQLDialect: Sendable {
    /// The tables and columns of posts and users.
    var columns: RecordColumns { get }
    /// The expression of the post field a client added, read as `type`.
    func extraField(_ name: String, as type: FieldType) -> String
    /// Whether the post's added array field `name` holds the value at `placeholder`.
    func arrayContains(_ name: String, _ placeholder: String) -> String
    /// The tables of the roles and their users.
    var roleTables: RoleTables { get }
    /// The `number`-th placeholder, from 1.
    func placeholder(_ number: Int) -> String
    /// A boolean literal.
    func literal(_ value: Bool) -> String
    /// Whether the text `list` holds the text at `placeholder`.
    func contains(_ list: String, _ placeholder: String) -> String
    /// Whether `expression` matches `pattern`, whose text is at `placeholder`.
    func matches(_ expression: String, _ pattern: TextPattern, placeholder: String) -> String
    /// A sort term on `expression`, a missing value first in ascending order and last in descending.
    func sortTerm(_ expression: String, descending: Bool) -> String
    /// Whether the post's author is among the users for whom `condition` holds.
    func authorAmong(usersWhere condition: String) -> String
}

extension RecordSQLDialect {
    /// The expression of a field of `recordClass`; text compared and sorted byte by byte.
    public func column(_ field: RecordField, of recordClass: RecordClass) -> String {
        columns.column(field, of: recordClass) { extraField($0, as: .string) }
    }

    /// The post's list of readers, as `PostAccess.storedReaders` writes it (NULL: everyone).
    public var readersColumn: String { "\(columns.posts).readers" }

    /// Why the post was removed (NULL: it was not), as `PostRemoval` names it.
    public var removedColumn: String { "\(columns.posts).removed" }
}
