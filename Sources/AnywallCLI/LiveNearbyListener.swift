import Foundation
import LiveQueryClient
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// Where `--watch` can listen: the wall's LiveQuery server and what to present to it.
struct LiveQueryOffer {
    let address: LiveQueryAddress
    let server: ParseServer
    /// The logged-in user's session on the wall, so the server applies their access.
    let sessionToken: String?

    /// What the wall offers: a Parse Server's named LiveQuery server, else the one anywall-server
    /// serves beside its REST API (a stock Parse Server has none there: the subscription finds out
    /// and the watch asks instead). The embedded wall offers none: nil.
    static func of(_ context: CommandContext, wall: WallBackend) throws -> LiveQueryOffer? {
        guard let server = try context.server() else { return nil }
        let named = try context.preferences().liveQuery
        return LiveQueryOffer(address: named ?? LiveQueryAddress(servedBeside: server), server: server,
                              sessionToken: try context.sessions.session(for: wall.identity)?.token)
    }

    /// A subscription (not yet started) to `className`'s objects matching `where`, as the logged-in user.
    func subscription(className: String, where clause: JSONValue, deliver: @escaping @Sendable (LiveUpdate) -> Void) -> LiveSubscription {
        LiveSubscription(address: address, applicationId: server.applicationId, restKey: server.restKey, sessionToken: sessionToken,
                         className: className, where: clause, deliver: deliver)
    }
}

/// `nearby --watch` listening to a LiveQuery subscription: the updates arrive on the socket's
/// threads and wait here until the watch's loop takes them, in order, as printed events.
final class LiveNearbyListener: @unchecked Sendable {
    /// What the loop is to do after taking the updates that came.
    enum Outcome {
        case events([ChangeEvent])
        /// LiveQuery cannot be had (for this reason): ask the wall instead.
        case unavailable(String)
    }

    private let wall: WallBackend
    private let nearby: PushedNearby
    private let subscription: LiveSubscription
    private let lock = NSLock()
    private var waiting: [LiveUpdate] = []
    /// The wall's rules for counted posts, read once when a post first needs them.
    private var rules: CommunityRules?

    /// Subscribes to `query` (centred on `fix`) at the offer's address.
    init(offer: LiveQueryOffer, wall: WallBackend, query: WallQuery, from fix: Fix, filterRadius: Distance, minMove: Distance) throws {
        self.wall = wall
        nearby = PushedNearby(query: query, from: fix, filterRadius: filterRadius, minMove: minMove)
        let box = UpdateBox()
        subscription = offer.subscription(className: "Posts", where: try ParseWall.subscriptionWhere(query),
                                          deliver: { box.listener?.take($0) })
        box.listener = self
        subscription.start()
    }

    /// The latest fix, for the asking watch that takes over when LiveQuery cannot be had.
    var latestFix: Fix { nearby.latest }

    /// Where it listens, for messages.
    var address: String { subscription.address.url }

    /// The events of a new fix; a move of `minMove` or more moves the subscription too.
    func move(to fix: Fix) throws -> [ChangeEvent] {
        let (events, recentred) = nearby.move(to: fix)
        if recentred { subscription.recentre(where: try ParseWall.subscriptionWhere(nearby.query)) }
        return events
    }

    /// The updates that came since the last call, as events; `warn` hears of interruptions.
    func takeUpdates(warn: (String) -> Void) throws -> Outcome {
        let updates = lock.withLock {
            defer { waiting = [] }
            return waiting
        }
        var events: [ChangeEvent] = []
        for update in updates {
            switch update {
            case .snapshot(let records):
                events += nearby.replace(with: try records.compactMap(shownPost))
            case .listNeeded:
                // Read as the asking watch reads: anyone's view, the nearest `limit`.
                events += nearby.replace(with: try wall.nearby(nearby.query))
            case .matches(let record):
                guard let objectId = record.fields?["objectId"]?.text else { continue }
                // A post now removed, or a record that is no post, stops being shown.
                if let post = try shownPost(record) { events += nearby.put(post) } else { events += nearby.drop(objectId) }
            case .leaves(let objectId):
                events += nearby.drop(objectId)
            case .interrupted(let reason):
                warn("\(reason); reconnecting to \(address)")
            case .resumed:
                warn("listening to \(address) again")
            case .unavailable(let reason):
                subscription.stop()
                return .unavailable(reason)
            }
        }
        return .events(events)
    }

    func stop() {
        subscription.stop()
    }

    private func take(_ update: LiveUpdate) {
        lock.withLock { waiting.append(update) }
    }

    /// The post of a record as the asking watch would show it (nil: not shown, e.g. removed).
    private func shownPost(_ record: JSONValue) throws -> Post? {
        guard let object = try? ParsePostObject(json: record), let social = SocialPost(record: object) else { return nil }
        if social.needsRules, rules == nil { rules = CommunityRules(config: try wall.fetchConfig()) }
        return social.shown(to: nil, under: rules)
    }

    /// Lets the subscription's callback reach the listener it is made for, set once that exists.
    private final class UpdateBox: @unchecked Sendable {
        weak var listener: LiveNearbyListener?
    }
}
