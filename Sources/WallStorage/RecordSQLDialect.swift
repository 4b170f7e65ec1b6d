import WallDomain

/// How one store writes the parts of SQL that differ between stores, for `RecordConditionSQL`.
public protocol RecordSQLDialect: Sendable {
    /// The expression of a built-in field of `recordClass`; text compared and sorted byte by byte.
    func column(_ field: RecordField, of recordClass: RecordClass) -> String
    /// The expression of the post field a client added, read as `type`.
    func extraField(_ name: String, as type: FieldType) -> String
    /// Whether the post's added array field `name` holds the value at `placeholder`.
    func arrayContains(_ name: String, _ placeholder: String) -> String
    /// The post's list of readers, as `PostAccess.storedReaders` writes it (NULL: everyone).
    var readersColumn: String { get }
    /// Whether the post's readers name a role held by the user whose objectId is at `placeholder`.
    func readersNameRoleOf(_ placeholder: String) -> String
    /// Whether the user whose objectId is at `placeholder` holds the role `moderators`.
    func moderates(_ placeholder: String) -> String
    /// Whether the user (a row of the users' table) holds the role whose objectId is at `placeholder`.
    func holdsRole(_ placeholder: String) -> String
    /// Why the post was removed (NULL: it was not), as `PostRemoval` names it.
    var removedColumn: String { get }
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
