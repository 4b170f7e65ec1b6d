import Foundation

/// The fields clients added to a post as every store keeps them, in one text column: a JSON
/// object, NULL (nil) for none.
public enum StoredFields {
    /// The most bytes a post's added fields may take as kept: a request's body bound (64 KiB), so
    /// that updates (`Add`, a hundred times) cannot grow a post that every find near it returns.
    public static let maxBytes = 64 * 1024

    /// Refuses fields that would take more than `maxBytes` as kept (`AnywallError.objectTooLarge`).
    public static func checkSize(_ fields: [String: JSONValue]) throws(AnywallError) {
        guard !fields.isEmpty else { return }
        let size: Int
        do {
            size = try JSONEncoder().encode(fields).count
        } catch {
            throw .inputRejected("a post's fields cannot be written as JSON")
        }
        guard size <= maxBytes else {
            throw .objectTooLarge("a post's fields may take \(maxBytes / 1024) KiB at most; these would take \(size / 1024) KiB")
        }
    }

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
