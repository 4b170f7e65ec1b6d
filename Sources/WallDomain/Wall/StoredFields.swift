import Foundation

/// The fields clients added to a post as every store keeps them, in one text column: a JSON
/// object, NULL (nil) for none.
public enum StoredFields {
    /// The fields as kept.
    public static func text(_ fields: [String: JSONValue]) throws -> String? {
        fields.isEmpty ? nil : String(decoding: try JSONEncoder().encode(fields), as: UTF8.self)
    }

    /// The fields kept as `text`: none for nil.
    public static func fields(_ text: String?) throws -> [String: JSONValue] {
        guard let text else { return [:] }
        guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            throw AnywallError.failure("a post has fields that are not a JSON object")
        }
        return object
    }
}
