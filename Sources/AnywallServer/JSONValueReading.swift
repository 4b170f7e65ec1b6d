import WallDomain

/// How the server reads the JSON values of a request, as Parse Server's JavaScript does.
extension JSONValue {
    /// The string, if this is one.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Whether JavaScript takes the value as true, as Parse Server tests a body's keys.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty
        case .array, .object: return true
        }
    }
}
