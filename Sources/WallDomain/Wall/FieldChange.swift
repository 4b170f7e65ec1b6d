/// A change to a field a client added to a post: a new value, or one of Parse's operations.
public enum FieldChange: Equatable, Sendable {
    case set(JSONValue)
    /// `{"__op":"Delete"}`: the field is removed.
    case delete
    /// `{"__op":"Increment","amount":n}`: a number grows by `n` (from 0 when unset).
    case increment(Double)
    /// `Add`: the objects are appended to the array (a new one when unset).
    case add([JSONValue])
    /// `AddUnique`: those not in the array already are appended.
    case addUnique([JSONValue])
    /// `Remove`: every copy of the objects leaves the array.
    case remove([JSONValue])

    /// Whether the new value is computed from the old one (an operation other than `Delete`).
    public var isComputed: Bool {
        switch self {
        case .set, .delete: return false
        case .increment, .add, .addUnique, .remove: return true
        }
    }

    /// The field's value after the change, from its value `current` (nil: unset); nil when the
    /// field is then unset. A change that does not fit the current value is refused, as Parse
    /// refuses it.
    public func applied(to current: JSONValue?, field: String) throws(AnywallError) -> JSONValue? {
        switch self {
        case .set(let value): return value
        case .delete: return nil
        case .increment(let amount):
            switch current {
            case nil, .null?: return .number(amount)
            case .number(let number)?:
                guard (number + amount).isFinite else { throw .inputRejected("incrementing \(field) goes beyond the numbers JSON holds") }
                return .number(number + amount)
            default: throw .fieldTypeMismatch(field: field, expected: FieldType(of: current!)?.rawValue ?? "a value", given: FieldType.number.rawValue)
            }
        case .add(let objects), .addUnique(let objects), .remove(let objects):
            let list: [JSONValue]
            switch current {
            case nil, .null?: list = []
            case .array(let items)?: list = items
            default: throw .fieldTypeMismatch(field: field, expected: FieldType(of: current!)?.rawValue ?? "a value", given: FieldType.array.rawValue)
            }
            // Sets, not `contains` on arrays: both sizes are the client's to choose, and their
            // product ran inside the wall's one write transaction, holding up every other writer.
            switch self {
            case .add: return .array(list + objects)
            case .addUnique:
                var held = Set(list)
                return .array(list + objects.filter { held.insert($0).inserted })
            default:
                let removed = Set(objects)
                return .array(list.filter { !removed.contains($0) })
            }
        }
    }
}
