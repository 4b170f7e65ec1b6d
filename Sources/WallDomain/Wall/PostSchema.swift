/// The types of the fields clients added to posts, as Parse's schema keeps them: the first
/// value a field is given fixes its type.
public struct PostSchema: Equatable, Sendable {
    public private(set) var types: [String: FieldType]

    /// The most fields clients may add to posts. Every find reads the schema, and each new name
    /// a client makes up would stay in it for good: past this, a new field is refused
    /// (`objectTooLarge`) until the master key deletes some through `/schemas`.
    public static let maxFields = 100

    public init(types: [String: FieldType] = [:]) {
        self.types = types
    }

    /// Admits the fields of a post about to be kept, learning the type of each new one; returns
    /// the new fields' types. A value whose type differs from its field's is refused
    /// (`AnywallError.fieldTypeMismatch`); so is a name Parse would not take or a value without
    /// a type (`inputRejected`).
    @discardableResult
    public mutating func admit(_ fields: [String: JSONValue]) throws(AnywallError) -> [String: FieldType] {
        var learned: [String: FieldType] = [:]
        for name in fields.keys.sorted() {
            let value = fields[name]!
            guard FieldType.isFieldName(name), !RecordClass.posts.reservedNames.contains(name) else {
                throw .inputRejected("Invalid field name: \(name).")
            }
            guard let type = FieldType(of: value) else { throw .inputRejected("\(name) has a value of no type Parse keeps") }
            if let known = types[name] {
                guard known == type else { throw .fieldTypeMismatch(field: name, expected: known.rawValue, given: type.rawValue) }
            } else {
                guard types.count < Self.maxFields else {
                    throw .objectTooLarge("Posts has \(Self.maxFields) added fields, the most this wall keeps: \(name) would be one more")
                }
                types[name] = type
                learned[name] = type
            }
        }
        return learned
    }
}
