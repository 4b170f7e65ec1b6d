/// One write to a post as the wall's change log keeps it, with the post before and after it:
/// what LiveQuery turns into events for each subscription.
public struct PostChange: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case create, update, delete
    }

    /// A row of the log: which object a write changed (a post, or an `Activity` row), and how.
    public struct Entry: Equatable, Sendable {
        public let seq: Int64
        public let kind: Kind
        public let objectId: String
        public let isActivity: Bool

        public init(seq: Int64, kind: Kind, objectId: String, isActivity: Bool = false) {
            self.seq = seq
            self.kind = kind
            self.objectId = objectId
            self.isActivity = isActivity
        }
    }

    /// Its place in the log: it grows with every write, in the order the writes were committed.
    public let seq: Int64
    public let kind: Kind
    public let objectId: String
    /// The post before the write (nil for a create) and after it (nil for a delete).
    public let before: StoredPost?
    public let after: StoredPost?

    public init(seq: Int64, kind: Kind, objectId: String, before: StoredPost?, after: StoredPost?) {
        self.seq = seq
        self.kind = kind
        self.objectId = objectId
        self.before = before
        self.after = after
    }

    /// The changes of `entries` (in log order) with their posts: `befores` holds the post before
    /// each update and delete, by seq; `following` the post after the last entry of each object
    /// that was not a delete. A post after a write is the post before the next write to it.
    public static func assemble(_ entries: [Entry], befores: [Int64: StoredPost], following: [String: StoredPost]) -> [PostChange] {
        var next: [String: Int64] = [:]
        var afterOf: [Int64: StoredPost?] = [:]
        for entry in entries.reversed() {
            if let later = next[entry.objectId] {
                afterOf[entry.seq] = befores[later]
            } else {
                afterOf[entry.seq] = entry.kind == .delete ? nil : following[entry.objectId]
            }
            next[entry.objectId] = entry.seq
        }
        return entries.map { entry in
            PostChange(seq: entry.seq, kind: entry.kind, objectId: entry.objectId, before: entry.kind == .create ? nil : befores[entry.seq],
                       after: afterOf[entry.seq] ?? nil)
        }
    }
}

/// A page of the change log: the changes after a seq, and where the log stood when it was read.
public struct PostChangePage: Sendable {
    /// The changes to posts, with the posts, and the rows of `Activity` written, each in log order.
    public let changes: [PostChange]
    public let activity: [PostChange.Entry]
    /// The last seq written when the page was read.
    public let latest: Int64
    /// The last seq pruned from the log (or skipped by a load in bulk): a replay must start at or after it.
    public let prunedThrough: Int64

    /// A page of `entries` (both classes, in log order), the posts' changes assembled from them.
    public init(entries: [PostChange.Entry], changes: [PostChange], latest: Int64, prunedThrough: Int64) {
        self.changes = changes
        activity = entries.filter(\.isActivity)
        count = entries.count
        last = entries.last?.seq
        self.latest = latest
        self.prunedThrough = prunedThrough
    }

    /// How many rows of the log it holds, and the seq of its last.
    public let count: Int
    public let last: Int64?
}
