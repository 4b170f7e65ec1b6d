import ParseWire
import WallDomain

/// One subscription's side of the protocol across its connections, without the socket: what to
/// send when, which events are new, when to ask for a snapshot again. `LiveSubscription` feeds it
/// what happens and carries out the steps it returns.
struct SubscriptionState {
    /// What to do next.
    enum Step: Equatable {
        case send(LiveQueryRequest)
        case deliver(LiveUpdate)
        /// Close this connection and open another after the backoff.
        case reconnect(String)
        /// Give up for good (the owner has been told).
        case stop
    }

    /// The one subscription this client makes, so one request id.
    static let requestId = 1

    let applicationId: String
    let restKey: String?
    let sessionToken: String?
    let className: String
    /// The `where` in force (moved with the reader's centre).
    private(set) var clause: JSONValue
    /// The sequence of the last event delivered: what a new connection resumes from.
    private(set) var lastSeq: Int?
    /// Whether the server takes anywall-server's `since` and `snapshot` (until it refuses them).
    private(set) var takesAdditions = true
    /// Whether a subscribe waits for its `subscribed` (nil: none does), and whether it carried `since`.
    private var pendingSince: Bool?
    /// The `where` the pending subscribe carried: a move meanwhile is sent once it is in force.
    private var pendingClause: JSONValue?
    private var subscribed = false
    private var everSubscribed = false
    private var interrupted = false
    private var finished = false

    init(applicationId: String, restKey: String?, sessionToken: String?, className: String, where clause: JSONValue) {
        self.applicationId = applicationId
        self.restKey = restKey
        self.sessionToken = sessionToken
        self.className = className
        self.clause = clause
    }

    /// A socket opened: introduce the client.
    mutating func opened() -> [Step] {
        subscribed = false
        pendingSince = nil
        return [.send(.connect(applicationId: applicationId, restKey: restKey, sessionToken: sessionToken))]
    }

    /// The reader moved: the subscription follows once it is in force (a later subscribe carries
    /// the new `where` anyway).
    mutating func recentre(_ clause: JSONValue) -> [Step] {
        self.clause = clause
        guard subscribed else { return [] }
        return [.send(.update(requestId: Self.requestId, className: className, where: sentClause))]
    }

    mutating func received(_ message: LiveQueryMessage) -> [Step] {
        guard !finished else { return [] }
        switch message {
        case .connected:
            return subscribe()
        case .subscribed(let requestId):
            guard requestId == Self.requestId else { return [] }
            pendingSince = nil
            subscribed = true
            everSubscribed = true
            var steps: [Step] = []
            if interrupted {
                interrupted = false
                steps.append(.deliver(.resumed))
            }
            // A stock server sends no snapshot, and its `update` brings no events for what the new
            // centre takes in or leaves out: the owner reads the matches itself each time.
            if !takesAdditions { steps.append(.deliver(.listNeeded)) }
            if let sent = pendingClause, sent != sentClause {
                steps.append(.send(.update(requestId: Self.requestId, className: className, where: sentClause)))
            }
            pendingClause = nil
            return steps
        case .snapshot(let requestId, let results, let seq):
            guard requestId == Self.requestId else { return [] }
            lastSeq = seq
            return [.deliver(.snapshot(results))]
        case .event(let kind, let requestId, let object, let seq):
            guard requestId == Self.requestId else { return [] }
            if let seq {
                // Already delivered (replayed after a resume, or sent twice): none is doubled.
                if let lastSeq, seq <= lastSeq { return [] }
                lastSeq = seq
            }
            if kind.matches { return [.deliver(.matches(object))] }
            guard let objectId = object.fields?["objectId"]?.text else { return [] }
            return [.deliver(.leaves(objectId: objectId))]
        case .error(let code, let message, let reconnect, let requestId):
            guard requestId == nil || requestId == Self.requestId else { return [] }
            if pendingSince != nil, takesAdditions, code == 1 {
                // Parse's schema refuses unknown properties: a stock server. Without the additions.
                takesAdditions = false
                return subscribe()
            }
            if pendingSince == true, !reconnect {
                // Past the server's retention window: nothing can be replayed, so start again from a
                // snapshot, which the owner diffs against what it holds.
                lastSeq = nil
                return subscribe()
            }
            guard reconnect else {
                finished = true
                return [.deliver(.unavailable("the LiveQuery server refused the subscription: \(message)")), .stop]
            }
            return [.reconnect("the LiveQuery server said: \(message)")]
        case .ignored:
            return []
        }
    }

    /// The connection ended for `reason`; before any subscription took, LiveQuery is unavailable.
    mutating func closed(_ reason: String) -> [Step] {
        subscribed = false
        pendingSince = nil
        guard !finished else { return [.stop] }
        guard everSubscribed else {
            finished = true
            return [.deliver(.unavailable(reason)), .stop]
        }
        guard !interrupted else { return [] }
        interrupted = true
        return [.deliver(.interrupted(reason))]
    }

    private var sentClause: JSONValue { takesAdditions ? clause : StockWhere.adapted(clause) }

    private mutating func subscribe() -> [Step] {
        let since = takesAdditions ? lastSeq : nil
        let snapshot = takesAdditions && lastSeq == nil
        pendingSince = since != nil
        pendingClause = sentClause
        return [.send(.subscribe(requestId: Self.requestId, className: className, where: sentClause, since: since, snapshot: snapshot))]
    }
}
