/// One key of a sort order for posts, as Parse's `order` parameter names it (`-createdAt`).
public struct PostOrder: Equatable, Sendable {
    /// The fields posts can be sorted by.
    public enum Field: String, CaseIterable, Sendable {
        case createdAt, updatedAt, objectId, text
    }

    public let field: Field
    public let descending: Bool

    public init(_ field: Field, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }

    /// `createdAt` or `-createdAt`; nil for a field posts cannot be sorted by.
    public init?(parsing term: Substring) {
        let descending = term.hasPrefix("-")
        guard let field = Field(rawValue: String(descending ? term.dropFirst() : term)) else { return nil }
        self.init(field, descending: descending)
    }

    /// Whether `a` comes before `b` by this key alone; nil when they tie on it.
    func precedes(_ a: StoredPost, _ b: StoredPost) -> Bool? {
        switch field {
        case .createdAt: return precedes(a.createdAt, b.createdAt)
        case .updatedAt: return precedes(a.updatedAt, b.updatedAt)
        case .objectId: return precedes(a.objectId, b.objectId)
        case .text: return precedes(a.text, b.text)
        }
    }

    private func precedes<Value: Comparable>(_ a: Value, _ b: Value) -> Bool? {
        a == b ? nil : (a < b) != descending
    }

    /// The SQL sort term over the `post` table.
    package var sql: String {
        let column = field == .updatedAt ? "COALESCE(post.updatedAt, post.createdAt)" : "post.\(field.rawValue)"
        return column + (descending ? " DESC" : " ASC")
    }
}

extension Array where Element == PostOrder {
    /// Whether `a` comes before `b` by these keys, the first deciding; nil when they tie on all.
    public func precedes(_ a: StoredPost, _ b: StoredPost) -> Bool? {
        for key in self {
            if let decided = key.precedes(a, b) { return decided }
        }
        return nil
    }
}
