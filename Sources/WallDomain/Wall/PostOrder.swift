/// One key of a sort order for posts, as Parse's `order` parameter names it (`-createdAt`,
/// `score`): a built-in field or one a client added. A post without the field comes first in
/// ascending order and last in descending, as Parse (MongoDB) sorts a missing value.
public struct PostOrder: Equatable, Sendable {
    public let field: RecordField
    public let descending: Bool

    public init(_ field: RecordField, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }

    /// `createdAt` or `-createdAt`; nil for a name posts cannot be sorted by.
    public init?(parsing term: Substring) {
        let descending = term.hasPrefix("-")
        guard let field = RecordField(String(descending ? term.dropFirst() : term), of: .posts) else { return nil }
        self.init(field, descending: descending)
    }

    /// Whether `a` comes before `b` by this key alone; nil when they tie on it.
    func precedes(_ a: StoredPost, _ b: StoredPost) -> Bool? {
        switch field {
        case .createdAt: return precedes(a.createdAt, b.createdAt)
        case .updatedAt: return precedes(a.updatedAt, b.updatedAt)
        case .objectId: return precedes(a.objectId, b.objectId)
        case .text: return precedes(a.text, b.text)
        case .user: return precedes(a.author?.objectId ?? "", b.author?.objectId ?? "")
        case .parent: return precedes(a.parent ?? "", b.parent ?? "")
        case .score: return precedes(a.score, b.score)
        case .replyCount: return precedes(a.replyCount, b.replyCount)
        case .reportCount: return precedes(a.reportCount, b.reportCount)
        case .removed: return precedes(a.removed?.rawValue ?? "", b.removed?.rawValue ?? "")
        case .username, .name: return nil
        case .extra(let name): return precedes(SortableValue(a.fields[name]), SortableValue(b.fields[name]))
        }
    }

    private func precedes<Value: Comparable>(_ a: Value, _ b: Value) -> Bool? {
        a == b ? nil : (a < b) != descending
    }
}

/// An added field's value in sort order: missing first, then the value as its type sorts (a
/// field holds one type, so values of two types never meet but in a broken wall).
private enum SortableValue: Comparable {
    case missing
    case flag(Int)
    case number(Double)
    case text(String)

    init(_ value: JSONValue?) {
        switch value {
        case .bool(let flag)?: self = .flag(flag ? 1 : 0)
        case .number(let number)?: self = .number(number)
        case .string(let text)?: self = .text(text)
        case .object(let object)?:
            // A Date sorts by its ISO text, a Pointer by its objectId, as the stores sort them.
            if case .string(let text)? = object["iso"] ?? object["objectId"] { self = .text(text) } else { self = .missing }
        default: self = .missing
        }
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
