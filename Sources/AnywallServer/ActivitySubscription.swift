import Foundation
import ParseWire
import WallDomain

/// One LiveQuery subscription on `Activity`: the rows a find with its `where` gives its user, as
/// they are written, changed and deleted. Whether a row is in it is asked of the wall itself (the
/// find, narrowed to that row), so the rules of who sees a vote or a report are the finds' own;
/// the rows it was told of, with what it was told, decide between create, enter, update, leave and
/// delete.
final class ActivitySubscription {
    let client: LiveClient
    let requestId: Double
    /// Its user's session: rows are a signed-in user's.
    let token: String
    let filter: ActivityFilter
    private let keys: Set<String>?
    private let watch: [String]?
    let start: Int64
    var deliveredThrough: Int64
    /// The rows it holds, as they were last sent.
    private var held: [String: JSONValue]

    init(client: LiveClient, request: LiveQueryRequest.Subscribe, filter: ActivityFilter, token: String, start: Int64, held: [StoredActivity]) {
        self.client = client
        requestId = request.requestId
        self.token = token
        self.filter = filter
        keys = request.keys.map(Set.init)
        watch = request.watch
        self.start = start
        deliveredThrough = start
        self.held = Dictionary(held.map { ($0.objectId, Self.object($0, keys: nil)) }) { a, _ in a }
    }

    /// Its find narrowed to the row `objectId`; nil when it asks for another row.
    func filter(for objectId: String) -> ActivityFilter? {
        if let asked = filter.objectId, asked != objectId { return nil }
        var one = filter
        one.objectId = objectId
        return one
    }

    /// The event a change to the row `entry` names makes, `row` being the row as the find gives it now.
    func event(for entry: PostChange.Entry, row: StoredActivity?) -> String? {
        let before = held[entry.objectId]
        let after = row.map { Self.object($0, keys: nil) }
        held[entry.objectId] = after
        let op: String
        switch (before, after) {
        case (nil, _?): op = entry.kind == .create ? "create" : "enter"
        case (let before?, let after?):
            guard before != after, watch.map({ names in names.contains { before[$0] != after[$0] } }) ?? true else { return nil }
            op = "update"
        case (_?, nil): op = entry.kind == .delete ? "delete" : "leave"
        case (nil, nil): return nil
        }
        let object = (after ?? before).map { trimmed($0) } ?? .null
        let original = after != nil ? before.map { trimmed($0) } : nil
        return LiveQueryReply.event(op, client, requestId: requestId, object: LiveQueryReply.encoded(object),
                                    original: original.map(LiveQueryReply.encoded), seq: entry.seq)
    }

    /// A row as an event or a snapshot carries it: as a find returns it, with its class.
    static func object(_ row: StoredActivity, keys: Set<String>?) -> JSONValue {
        LiveQueryReply.trimmed(ActivityRoutes.json(row), className: "Activity", keys: keys)
    }

    private func trimmed(_ object: JSONValue) -> JSONValue {
        LiveQueryReply.trimmed(object, className: "Activity", keys: keys)
    }
}

extension JSONValue {
    fileprivate subscript(_ name: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields[name]
    }
}
