import Foundation
import ParseWire
import WallDomain

/// A message from a LiveQuery server, as the client reads it. Fields the client has no use for
/// (`clientId`, `installationId`, `original`) are not read.
enum LiveQueryMessage: Equatable {
    /// What an event says of an object.
    enum EventKind: String {
        case create, enter, update, leave, delete

        /// Whether the object matches the subscription after the event.
        var matches: Bool { self == .create || self == .enter || self == .update }
    }

    case connected
    /// The subscription (or its update) is in force.
    case subscribed(requestId: Int)
    /// An object's event; `seq` is anywall-server's sequence number (none from a stock server).
    case event(EventKind, requestId: Int, object: JSONValue, seq: Int?)
    /// anywall-server's snapshot: the current matches, read at sequence `seq`.
    case snapshot(requestId: Int, results: [JSONValue], seq: Int)
    /// `error`: `reconnect` false means trying again as it is would fail again.
    case error(code: Int?, message: String, reconnect: Bool, requestId: Int?)
    /// Any other op (`unsubscribed`, and what later servers may add): nothing to do.
    case ignored(op: String)

    /// Reads one message; nil for text that is not a LiveQuery message (a server's noise is
    /// skipped, as Parse Server skips a client's).
    init?(text: String) {
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), let fields = json.fields,
              let op = fields["op"]?.text else { return nil }
        let requestId = fields["requestId"]?.number.flatMap { Int(exactly: $0) }
        let seq = fields["seq"]?.number.flatMap { Int(exactly: $0) }
        switch op {
        case "connected":
            self = .connected
        case "subscribed":
            guard let requestId else { return nil }
            self = .subscribed(requestId: requestId)
        case "snapshot":
            guard let requestId, let seq, case .array(let results)? = fields["results"] else { return nil }
            self = .snapshot(requestId: requestId, results: results, seq: seq)
        case "error":
            let reconnect: Bool
            if case .bool(let value)? = fields["reconnect"] { reconnect = value } else { reconnect = true }
            self = .error(code: fields["code"]?.number.flatMap { Int(exactly: $0) }, message: fields["error"]?.text ?? "no reason given",
                          reconnect: reconnect, requestId: requestId)
        default:
            guard let kind = EventKind(rawValue: op) else {
                self = .ignored(op: op)
                return
            }
            guard let requestId, let object = fields["object"], object.fields != nil else { return nil }
            self = .event(kind, requestId: requestId, object: object, seq: seq)
        }
    }
}
