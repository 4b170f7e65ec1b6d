/// What a query asks of each record beside its place: Parse's query language on one class, read
/// once from the client's `where` and translated by each store, through the storage layer (WallStorage).
/// `null` and missing fields behave as in Parse: a negation (`$ne`, `$nin`, `$nor`,
/// `$notInQuery`, `$dontSelect`) holds for a record without the field.
public indirect enum RecordCondition: Equatable, Sendable {
    /// Every condition holds (`$and`, and the fields of one `where`); true when empty.
    case all([RecordCondition])
    /// At least one holds (`$or`); false when empty.
    case any([RecordCondition])
    /// The condition does not hold, a missing field counting as not holding.
    case not(RecordCondition)
    /// `field op value`; `.equal` with `.null` holds for a missing field.
    case compare(RecordField, Comparison, FieldValue)
    /// The field equals one of the values (`$in`).
    case among(RecordField, [FieldValue])
    /// The field is set (`$exists`).
    case exists(RecordField)
    /// The text field matches the pattern (`$regex`).
    case matches(RecordField, TextPattern)
    /// A post's author is one of the users that match the condition (`$inQuery`, `$select` on
    /// `user`).
    case authorAmong(RecordCondition)
    /// The reader (a user's objectId, nil for nobody signed in) may read the post: what a store
    /// adds to every query that is not the master key's.
    case readable(by: String?)
    /// A user holds the role with this objectId (`$relatedTo` on a role's `users`).
    case holdsRole(String)

    /// No condition at all.
    public static let always = RecordCondition.all([])

    /// How values compare.
    public enum Comparison: String, Sendable {
        case equal = "=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// This condition and `other`, flattened.
    public func and(_ other: RecordCondition) -> RecordCondition {
        switch (self, other) {
        case (.all(let a), .all(let b)): return .all(a + b)
        case (.all(let a), _): return .all(a + [other])
        case (_, .all(let b)): return .all([self] + b)
        default: return .all([self, other])
        }
    }

    /// Whether the condition is `part`, or all of a list that holds it: every record that meets
    /// it meets `part` (a store may then read only the index of those).
    public func requires(_ part: RecordCondition) -> Bool {
        if case .all(let parts) = self { return parts.contains { $0.requires(part) } }
        return self == part
    }

    /// Whether any part of the condition asks something of a record (not only who reads it).
    public var constrainsFields: Bool {
        switch self {
        case .all(let parts): return parts.contains(where: \.constrainsFields)
        case .readable: return false
        default: return true
        }
    }
}
