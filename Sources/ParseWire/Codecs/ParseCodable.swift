import WallDomain

/// A value with one JSON shape in Parse's REST encoding, read and written through `JSONValue`:
/// the server builds its answers from `json`, the client decodes answers with `Codable`, and
/// both go through the same two functions, so the shape is written once.
public protocol ParseCodable: Codable {
    /// The value in Parse's encoding.
    var json: JSONValue { get }
    /// Reads the value, refusing anything that is not its shape with Parse's error.
    init(json: JSONValue) throws(ParseError)
}

extension ParseCodable {
    public func encode(to encoder: Encoder) throws {
        try json.encode(to: encoder)
    }

    public init(from decoder: Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            try self.init(json: value)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }
}

extension JSONValue {
    /// The fields of an object, or nil.
    public var fields: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// The text of a string, or nil.
    public var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Whether this is an object whose `__type` is `type`.
    func isParseType(_ type: String) -> Bool {
        fields?["__type"] == .string(type)
    }
}
