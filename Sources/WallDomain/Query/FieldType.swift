import Foundation

/// A field's type as Parse's schema names it. The first value a field is given fixes its type;
/// a value of another type is refused after that, as Parse refuses it.
public enum FieldType: String, Sendable, CaseIterable {
    case string = "String", number = "Number", boolean = "Boolean", date = "Date", object = "Object", array = "Array"
    case geoPoint = "GeoPoint", pointer = "Pointer", file = "File", bytes = "Bytes", polygon = "Polygon"

    /// The type of a value as a client sends it; nil for one that has none (`null`, an operation
    /// such as `{"__op":"Delete"}`, or an unknown `__type`).
    public init?(of value: JSONValue) {
        switch value {
        case .null: return nil
        case .bool: self = .boolean
        case .number: self = .number
        case .string: self = .string
        case .array: self = .array
        case .object(let fields):
            guard case .string(let type)? = fields["__type"] else {
                guard fields["__op"] == nil else { return nil }
                self = .object
                return
            }
            switch type {
            case "Date": self = .date
            case "Pointer": self = .pointer
            case "GeoPoint": self = .geoPoint
            case "File": self = .file
            case "Bytes": self = .bytes
            case "Polygon": self = .polygon
            default: return nil
            }
        }
    }

    /// Whether `name` may name a field, by Parse's rule: a letter, then letters, digits and `_`.
    public static func isFieldName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter, name.count <= 128 else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
