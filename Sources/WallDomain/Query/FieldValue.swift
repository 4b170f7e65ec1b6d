import Foundation

/// A value a query compares a field with: the scalars of Parse's query language. A Pointer is
/// its objectId; a Date its instant.
public enum FieldValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case date(Date)
    case null

    /// The type of field the value can be compared with; nil for `null`.
    public var type: FieldType? {
        switch self {
        case .string: return .string
        case .number: return .number
        case .bool: return .boolean
        case .date: return .date
        case .null: return nil
        }
    }

    /// Whether the value is a string, number or boolean: what an array field is asked to hold.
    public var isScalar: Bool {
        switch self {
        case .string, .number, .bool: return true
        case .date, .null: return false
        }
    }

    /// Whether the value can be compared with a field of `type`: a Pointer field with its
    /// objectId, a Date field with an instant.
    public func fits(_ type: FieldType) -> Bool {
        switch (self, type) {
        case (.string, .pointer), (.null, _): return true
        default: return self.type == type
        }
    }
}
