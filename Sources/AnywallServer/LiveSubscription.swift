import EmbeddedStore
import Foundation
import ParseWire
import WallDomain

/// One subscription of one LiveQuery client: its query, for whom it reads, and how a change to a
/// post becomes its event, as Parse Server decides it: in the query before and after, `update`;
/// after only, `enter` (`create` for a new post); before only, `leave` (`delete` for a deleted
/// post). "In the query" is what a REST find with the same `where`, for the same reader, would
/// return: the same matcher, ACLs, roles and removals included.
final class LiveSubscription {
    let client: LiveClient
    let requestId: Double
    let reader: LiveReader
    /// Its `where`, as the client sent it.
    let clause: WhereClause
    /// The query as the reader may see it, and the reader's sight alone (whether a post that
    /// left may still be shown).
    private let query: WhereMatch
    private let sight: WhereMatch
    private let keys: Set<String>?
    private let watch: [String]?
    /// The area its posts lie in, for `SubscriptionGrid`; nil when it asks nothing of the place.
    let boxes: [BoundingBox]?
    /// The seq it started after: what it needs begins after it.
    let start: Int64
    /// The last seq it was given an event for, or found none in.
    var deliveredThrough: Int64

    /// The `$regex` engine of every subscription: ICU, bounded as the SQLite store bounds it.
    private static let patterns = BoundedTextPatterns()

    init(client: LiveClient, request: LiveQueryRequest.Subscribe, clause: WhereClause, reader: LiveReader, start: Int64) throws(ParseError) {
        self.client = client
        requestId = request.requestId
        self.reader = reader
        self.clause = clause
        query = try WhereMatch(clause, reader: reader.postReader, patterns: Self.patterns)
        sight = try WhereMatch(WhereClause(), reader: reader.postReader, patterns: Self.patterns)
        keys = request.keys.map(Set.init)
        watch = request.watch
        boxes = Self.boxes(of: clause)
        self.start = start
        deliveredThrough = start
    }

    /// The event `change` makes for this subscription, if any; `rendering` keeps the change's
    /// posts as text for the subscriptions that ask for every key.
    func event(for change: PostChange, rendering: ChangeRendering, schema: [String: FieldType]) -> String? {
        let roles = reader.roleNames
        let wasIn = change.before.map { query.admits($0, schema: schema, readerRoles: roles) } ?? false
        let isIn = change.after.map { query.admits($0, schema: schema, readerRoles: roles) } ?? false
        let op: String
        var object: String
        var original = change.before.map { rendering.text(of: $0, keys: keys) }
        switch (wasIn, isIn, change.before, change.after) {
        case (true, true, let before?, let after?):
            guard watches(from: before, to: after) else { return nil }
            op = "update"
            object = rendering.text(of: after, keys: keys)
        case (false, true, _, let after?):
            op = change.before == nil ? "create" : "enter"
            object = rendering.text(of: after, keys: keys)
        case (true, false, let before?, let after):
            if let after {
                op = "leave"
                // Left because the reader may no longer read it: nothing of it goes with the event.
                object = sight.admits(after, schema: schema, readerRoles: roles)
                    ? rendering.text(of: after, keys: keys) : LiveQueryReply.encoded(LiveQueryReply.withheld(after))
            } else {
                op = "delete"
                object = rendering.text(of: before, keys: keys)
                original = nil
            }
        default:
            return nil
        }
        return LiveQueryReply.event(op, client, requestId: requestId, object: object, original: original, seq: change.seq)
    }

    /// Whether an update is told: always, or with `watch` when a watched field changed.
    private func watches(from before: StoredPost, to after: StoredPost) -> Bool {
        guard let watch else { return true }
        guard case .object(let old) = LiveQueryReply.object(before, keys: nil), case .object(let new) = LiveQueryReply.object(after, keys: nil) else {
            return true
        }
        return watch.contains { old[$0] != new[$0] }
    }

    private static func boxes(of clause: WhereClause) -> [BoundingBox]? {
        if let near = clause.near, let distance = near.maxDistance { return BoundingBox.covering(center: near.center, radius: distance) }
        return clause.areas.first?.boxes
    }
}

/// A change's posts as event text, made once for every subscription that asks for all their keys.
final class ChangeRendering {
    private var texts: [StoredPost: String] = [:]

    func text(of post: StoredPost, keys: Set<String>?) -> String {
        guard keys == nil else { return LiveQueryReply.encoded(LiveQueryReply.object(post, keys: keys)) }
        if let text = texts[post] { return text }
        let text = LiveQueryReply.encoded(LiveQueryReply.object(post, keys: nil))
        texts[post] = text
        return text
    }
}

/// Who a subscription reads for: the master key, or a user (nil: nobody signed in) whose roles
/// are kept for `lifetime` and read again after it, as Parse Server caches them.
final class LiveReader {
    static let lifetime: Duration = .seconds(5)

    let isMaster: Bool
    let userId: String?
    private(set) var roleNames: Set<String>
    private var readAt: ContinuousClock.Instant
    private var rereading = false

    init(isMaster: Bool, userId: String?, roleNames: Set<String>) {
        self.isMaster = isMaster
        self.userId = userId
        self.roleNames = roleNames
        readAt = .now
    }

    var postReader: PostReader { isMaster ? .master : .user(userId) }

    /// Whether its roles should be read again now; true once until `reread` is called.
    func needsRereading() -> Bool {
        guard !isMaster, userId != nil, !rereading, ContinuousClock.now - readAt > Self.lifetime else { return false }
        rereading = true
        return true
    }

    func reread(_ roleNames: Set<String>?) {
        if let roleNames { self.roleNames = roleNames }
        readAt = .now
        rereading = false
    }
}
