import Foundation
import ParseWire
import WallDomain

/// anywall-server's LiveQuery: the subscriptions of every connected client, and the reader of
/// the wall's change log that turns each write to a post into their events.
///
/// Every write leaves a numbered row in the log in its own transaction (`PostChange`), so the
/// events come from the log, not from the server that took the write: a write through another
/// server reaches this one's subscribers (PostgreSQL announces it; SQLite's file is read often),
/// and a subscription can start after any seq the log still holds (`since`), or from a snapshot of
/// its matches and the seq they were read at. Subscriptions are filed by the area they can match
/// (`SubscriptionGrid`), so a write is tested against those whose area holds the post.
package actor LiveQueryHub {
    package struct Options: Sendable {
        /// How long the log keeps a change: a `since` older than that is told to read the wall again.
        package var retention: Duration = .seconds(24 * 3600)
        /// The bytes of events one client may have waiting before it is closed.
        package var queueLimit = 4 << 20
        /// The most the change log keeps of posts' copies, whatever their age: an update keeps the
        /// whole post as it was, so a client rewriting large fields in a loop would otherwise grow
        /// the wall's file (and the server's cache of it) by as much every time.
        package var logBytes = 8 << 20

        package init() {}
    }

    /// The changes read at once, and the posts a snapshot holds at most (a find's largest page).
    static let pageSize = 500
    /// The room a replay waits for before each event.
    static let typicalEventBytes = 8192
    static let snapshotLimit = PostQuery.maxLimit

    private struct Key: Hashable {
        let client: String
        let requestId: Double
    }

    private let wall: any WallStore
    private let keys: ServerKeys
    private let masterKeyAddresses: AddressList
    private nonisolated let options: Options
    /// Every change up to it has been given to the subscriptions filed in `grid`.
    private var feedSeq: Int64 = 0
    /// Every subscription; those on Posts are filed by place in `grid`, those on Activity in
    /// `activityKeys`, once they have caught up with the log.
    private var listeners: [Key: any LiveListener] = [:]
    private var grid = SubscriptionGrid<Key>()
    private var activityKeys: Set<Key> = []
    private var schema: [String: FieldType] = [:]
    private var prunedAt = ContinuousClock.now
    /// Whether the last reading of the log failed (and was logged).
    private var logFailing = false
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    package init(wall: any WallStore, keys: ServerKeys, masterKeyAddresses: AddressList, options: Options = Options()) {
        self.wall = wall
        self.keys = keys
        self.masterKeyAddresses = masterKeyAddresses
        self.options = options
        (wakeups, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The bytes of events one client may have waiting.
    package nonisolated var clientQueueLimit: Int { options.queueLimit }

    /// Reads the log whenever a write is announced, and at least every store's poll interval,
    /// until the task is cancelled.
    package func run() async {
        feedSeq = (try? await wall.postChanges(after: .max, limit: 1).latest) ?? 0
        let interval = wall.changePollInterval
        let ticker = Task { [wake] in
            while (try? await Task.sleep(for: interval)) != nil { wake.yield() }
        }
        let listener = Task { [wall, wake] in
            while !Task.isCancelled {
                try? await wall.listenForChanges { wake.yield() }
                // Lost or never there: read the log for what came meanwhile, then listen again.
                wake.yield()
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
            }
        }
        defer {
            ticker.cancel()
            listener.cancel()
        }
        for await _ in wakeups { await readLog() }
    }

    /// Says a write was made (by a request this server answered): read the log now.
    package nonisolated func poke() {
        wake.yield()
    }

    // MARK: What clients ask

    func connect(_ client: LiveClient, _ request: LiveQueryRequest.Connect) throws(LiveQueryRefusal) {
        guard request.applicationId == keys.applicationId else { throw .invalidKey }
        let master = request.keys["masterKey"].map { $0 == keys.masterKey }
        if master == false || (master == true && !masterKeyAddresses.allows(client.address)) { throw .invalidKey }
        if let restKey = keys.restKey, master != true, request.keys["restAPIKey"] != restKey { throw .invalidKey }
        client.connected(as: LiveClient.Identity(isMaster: master == true, sessionToken: request.sessionToken, installationId: request.installationId))
        push(LiveQueryReply.connected(client), to: client)
    }

    /// A new subscription, or with `replacing` (Parse's `update`) one that replaces the
    /// subscription of the same requestId.
    func subscribe(_ client: LiveClient, _ request: LiveQueryRequest.Subscribe, replacing: Bool = false) async throws(LiveQueryRefusal) {
        guard let identity = client.connection else { throw .unknownClient("subscribing") }
        switch request.className {
        case "Posts": try await subscribePosts(client, identity, request, replacing: replacing)
        case "Activity": try await subscribeActivity(client, identity, request)
        default: throw .parse(ParseErrorCode.invalidClassName, "anywall-server serves LiveQuery on Posts and Activity")
        }
    }

    private func subscribePosts(_ client: LiveClient, _ identity: LiveClient.Identity, _ request: LiveQueryRequest.Subscribe,
                                replacing: Bool) async throws(LiveQueryRefusal) {
        let clause: WhereClause
        do {
            clause = try WhereClause(json: .object(request.whereJSON))
        } catch {
            throw .parse(error.code ?? ParseErrorCode.invalidQuery, error.message)
        }
        let token = request.sessionToken ?? identity.sessionToken
        let reader = try await reader(isMaster: identity.isMaster, token: token)
        let key = Key(client: client.id, requestId: request.requestId)
        var snapshot: (results: [StoredPost], seq: Int64)?
        var moved: (left: [StoredPost], entered: [StoredPost])?
        let start: Int64
        do {
            if let since = request.since {
                let page = try await wall.postChanges(after: .max, limit: 1)
                guard since >= page.prunedThrough, since <= page.latest else { throw Self.resync(since: since, page) }
                start = since
            } else if request.snapshot {
                let read = try await self.snapshot([clause], reader: reader, token: token)
                snapshot = (read.results[0], read.seq)
                start = read.seq
            } else if replacing, let previous = (listeners[key] as? LiveSubscription)?.clause {
                // The query changed (a watcher moved): what it now holds and no longer holds is told
                // as Parse's enter and leave, read at one seq, and the events go on from there.
                let both = try await self.snapshot([previous, clause], reader: reader, token: token)
                let before = Set(both.results[0].map(\.objectId)), now = Set(both.results[1].map(\.objectId))
                moved = (both.results[0].filter { !now.contains($0.objectId) }, both.results[1].filter { !before.contains($0.objectId) })
                start = both.seq
            } else {
                start = try await now()
            }
        } catch let refusal as LiveQueryRefusal {
            throw refusal
        } catch {
            throw Self.refusal(error)
        }
        let subscription: LiveSubscription
        do {
            subscription = try LiveSubscription(client: client, request: request, clause: clause, reader: reader, start: start)
        } catch {
            throw .parse(error.code ?? ParseErrorCode.invalidQuery, error.message)
        }
        register(subscription, key)
        let keys = request.keys.map(Set.init)
        if let snapshot {
            let results = snapshot.results.map { LiveQueryReply.object($0, keys: keys) }
            push(LiveQueryReply.snapshot(client, requestId: request.requestId, results: results, seq: snapshot.seq), to: client)
        }
        for (op, posts) in [("leave", moved?.left ?? []), ("enter", moved?.entered ?? [])] {
            for post in posts {
                let object = LiveQueryReply.encoded(LiveQueryReply.object(post, keys: keys))
                push(LiveQueryReply.event(op, client, requestId: request.requestId, object: object, original: object, seq: start), to: client)
            }
        }
        follow(subscription, key)
    }

    private func subscribeActivity(_ client: LiveClient, _ identity: LiveClient.Identity,
                                   _ request: LiveQueryRequest.Subscribe) async throws(LiveQueryRefusal) {
        guard let token = request.sessionToken ?? identity.sessionToken else {
            throw .parse(ParseErrorCode.sessionMissing, "an Activity is a signed-in user's: log in first")
        }
        let key = Key(client: client.id, requestId: request.requestId)
        let subscription: ActivitySubscription
        var snapshot: [StoredActivity]?
        do {
            let filter = try ActivityQuery(parameters: [("where", LiveQueryReply.encoded(.object(request.whereJSON)))]).filter
            _ = try await wall.user(token: token)
            let start: Int64
            if let since = request.since {
                let page = try await wall.postChanges(after: .max, limit: 1)
                guard since >= page.prunedThrough, since <= page.latest else { throw Self.resync(since: since, page) }
                start = since
            } else if request.snapshot {
                let read = try await atOneSeq { [wall] in try await wall.activities(filter, skip: 0, limit: Self.snapshotLimit, token: token) }
                snapshot = read.value
                start = read.seq
            } else {
                start = try await now()
            }
            subscription = ActivitySubscription(client: client, request: request, filter: filter, token: token, start: start, held: snapshot ?? [])
        } catch let refusal as LiveQueryRefusal {
            throw refusal
        } catch AnywallError.sessionExpired {
            throw .parse(ParseErrorCode.invalidSessionToken, "Invalid session token")
        } catch {
            throw Self.refusal(error)
        }
        register(subscription, key)
        if let snapshot {
            let results = snapshot.map { ActivitySubscription.object($0, keys: request.keys.map(Set.init)) }
            push(LiveQueryReply.snapshot(client, requestId: request.requestId, results: results, seq: subscription.start), to: client)
        }
        follow(subscription, key)
    }

    /// Where a subscription without `since` or `snapshot` starts: after every write committed
    /// before it, whether or not the log's reader has come to them yet.
    private func now() async throws -> Int64 {
        max(feedSeq, try await wall.postChanges(after: .max, limit: 1).latest)
    }

    /// Keeps `listener` as the subscription `key` (Parse's `update`, and a subscribe again with the
    /// same requestId, replace the one before) and tells its client.
    private func register(_ listener: any LiveListener, _ key: Key) {
        remove(key)
        listeners[key] = listener
        listener.client.forget(listener.requestId)
        push(LiveQueryReply.subscribed(listener.client, requestId: listener.requestId), to: listener.client)
    }

    /// Gives `listener` the changes after its start: at once with the others when it starts where
    /// the log was last read, else first those it missed.
    private func follow(_ listener: any LiveListener, _ key: Key) {
        if listener.start >= feedSeq {
            file(listener, key)
        } else {
            Task { await self.catchUp(listener, key) }
        }
    }

    private func file(_ listener: any LiveListener, _ key: Key) {
        if let subscription = listener as? LiveSubscription {
            grid.insert(key, boxes: subscription.boxes)
        } else {
            activityKeys.insert(key)
        }
    }

    func unsubscribe(_ client: LiveClient, requestId: Double) throws(LiveQueryRefusal) {
        guard client.connection != nil else { throw .unknownClient("unsubscribing") }
        let key = Key(client: client.id, requestId: requestId)
        guard listeners[key] != nil else {
            throw LiveQueryRefusal(code: 2, message: "Cannot find subscription with clientId \(client.id) subscriptionId \(Self.number(requestId)). "
                                   + "Make sure you subscribe to live query server before unsubscribing.", reconnect: true)
        }
        remove(key)
        client.forget(requestId)
        push(LiveQueryReply.unsubscribed(client, requestId: requestId), to: client)
    }

    /// Forgets a client whose socket closed, and its subscriptions.
    package func disconnect(_ client: LiveClient) {
        for key in listeners.keys where key.client == client.id { remove(key) }
    }

    /// Sends `text` to `client`; a client whose queue is full is dropped, told where to resume.
    func push(_ text: String, to client: LiveClient, event: (requestId: Double, seq: Int64)? = nil) {
        let fits = client.queue.push(LiveQueue.Message(text: text, event: event)) {
            let starts = Dictionary(listeners.filter { $0.key.client == client.id }.map { ($0.key.requestId, $0.value.start) }) { a, _ in a }
            let resume = client.resumeSeq(starts: starts)
            let refusal = LiveQueryRefusal(code: Self.tooSlow, message: "the client read too slowly and its events passed \(options.queueLimit) bytes: "
                                           + "subscribe again with since \(resume)", reconnect: true)
            return LiveQueue.Message(text: LiveQueryReply.error(refusal, seq: resume), event: nil)
        }
        if !fits { disconnect(client) }
    }

    // MARK: The log

    /// Reads the log from where it was last read and gives each change to the subscriptions.
    package func readLog() async {
        do {
            schema = try await wall.postSchema().types
            while true {
                let page = try await wall.postChanges(after: feedSeq, limit: Self.pageSize)
                for change in page.changes {
                    let points = [change.before?.location, change.after?.location].compactMap { $0 }
                    let rendering = ChangeRendering()
                    for key in grid.candidates(at: points) {
                        if let subscription = listeners[key] as? LiveSubscription { deliver(change, to: subscription, rendering: rendering) }
                    }
                }
                for entry in page.activity {
                    for key in activityKeys {
                        if let subscription = listeners[key] as? ActivitySubscription { await deliver(entry, to: subscription) }
                    }
                }
                feedSeq = page.last ?? max(feedSeq, page.latest)
                if page.count < Self.pageSize { break }
            }
            if ContinuousClock.now - prunedAt > min(options.retention / 10, .seconds(5)) {
                prunedAt = .now
                try await wall.pruneChanges(before: Date().addingTimeInterval(-Double(options.retention.components.seconds)),
                                            keepingAtMost: options.logBytes)
            }
            if logFailing {
                logFailing = false
                ServerLog.event("recovered", ["what": .string("reading the change log")])
            }
        } catch {
            // Once, not at every reading while the wall is away (every 100 ms on SQLite).
            if !logFailing { ServerLog.event("error", ["error": .string("reading the change log: \(error); trying again")]) }
            logFailing = true
        }
    }

    /// Gives a subscription that starts before `feedSeq` the changes it missed, at the pace its
    /// client reads them, then files it with the others.
    private func catchUp(_ listener: any LiveListener, _ key: Key) async {
        // Until it is replaced (`update`) or gone.
        while listeners[key] === listener {
            guard listener.deliveredThrough < feedSeq else {
                file(listener, key)
                return
            }
            do {
                let page = try await wall.postChanges(after: listener.deliveredThrough, limit: Self.pageSize)
                if let subscription = listener as? LiveSubscription {
                    for change in page.changes {
                        await listener.client.queue.room(for: Self.typicalEventBytes)
                        guard listeners[key] === listener else { return }
                        deliver(change, to: subscription, rendering: ChangeRendering())
                    }
                } else if let subscription = listener as? ActivitySubscription {
                    for entry in page.activity {
                        await listener.client.queue.room(for: Self.typicalEventBytes)
                        guard listeners[key] === listener else { return }
                        await deliver(entry, to: subscription)
                    }
                }
                listener.deliveredThrough = max(listener.deliveredThrough, page.last ?? page.latest)
            } catch {
                remove(key)
                push(LiveQueryReply.error(Self.refusal(error), requestId: key.requestId), to: listener.client)
                return
            }
        }
    }

    private func deliver(_ entry: PostChange.Entry, to subscription: ActivitySubscription) async {
        guard entry.seq > subscription.deliveredThrough else { return }
        subscription.deliveredThrough = entry.seq
        do {
            var row: StoredActivity?
            if let one = subscription.filter(for: entry.objectId) {
                row = try await wall.activities(one, skip: 0, limit: 1, token: subscription.token).first
            }
            guard let text = subscription.event(for: entry, row: row) else { return }
            push(text, to: subscription.client, event: (subscription.requestId, entry.seq))
        } catch {
            // Its session ended: the subscription ends, as a find with it would be refused.
            let key = Key(client: subscription.client.id, requestId: subscription.requestId)
            remove(key)
            push(LiveQueryReply.error(Self.refusal(error), requestId: subscription.requestId), to: subscription.client)
        }
    }

    private func deliver(_ change: PostChange, to subscription: LiveSubscription, rendering: ChangeRendering) {
        guard change.seq > subscription.deliveredThrough else { return }
        subscription.deliveredThrough = change.seq
        let reader = subscription.reader
        if reader.needsRereading(), let userId = reader.userId {
            Task { [wall] in
                let roles = try? await wall.roleNames(ofUser: userId)
                await self.reread(reader, roles)
            }
        }
        guard let text = subscription.event(for: change, rendering: rendering, schema: schema) else { return }
        push(text, to: subscription.client, event: (subscription.requestId, change.seq))
    }

    private func reread(_ reader: LiveReader, _ roles: Set<String>?) {
        reader.reread(roles)
    }

    private func remove(_ key: Key) {
        listeners[key] = nil
        grid.remove(key)
        activityKeys.remove(key)
    }

    // MARK: Reading for a subscription

    /// Who a subscription reads for: the master key, nobody, or the user of `token`.
    private func reader(isMaster: Bool, token: String?) async throws(LiveQueryRefusal) -> LiveReader {
        guard !isMaster, let token else { return LiveReader(isMaster: isMaster, userId: nil, roleNames: []) }
        do {
            let user = try await wall.user(token: token)
            return LiveReader(isMaster: false, userId: user.objectId, roleNames: try await wall.roleNames(ofUser: user.objectId))
        } catch AnywallError.sessionExpired {
            throw .parse(ParseErrorCode.invalidSessionToken, "Invalid session token")
        } catch {
            throw Self.refusal(error)
        }
    }

    /// The posts each of `clauses` matches now, for `reader`, and the seq they were read at: read
    /// again while a write came between the seq and the posts, so that the two agree.
    private func snapshot(_ clauses: [WhereClause], reader: LiveReader, token: String?) async throws -> (results: [[StoredPost]], seq: Int64) {
        let queries = try clauses.map { clause in
            var query = try PostQuery(parameters: [("limit", String(Self.snapshotLimit))])
            query.filter = clause
            query.reader = reader.postReader
            return query
        }
        let read = try await atOneSeq { [wall] in
            var results: [[StoredPost]] = []
            for query in queries { results.append(try await wall.find(query, session: token).posts) }
            return results
        }
        return (read.value, read.seq)
    }

    /// What `read` gives and the seq it was read at: read again while a write came between the seq
    /// and the read, so that the two agree (three times at most; then a post may also come as an
    /// event after the seq).
    private func atOneSeq<T: Sendable>(_ read: @Sendable () async throws -> T) async throws -> (value: T, seq: Int64) {
        var seq = try await wall.postChanges(after: .max, limit: 1).latest
        var value = try await read()
        for _ in 0..<2 {
            let after = try await wall.postChanges(after: .max, limit: 1).latest
            if after == seq { break }
            seq = after
            value = try await read()
        }
        return (value, seq)
    }

    // MARK: Refusals

    /// anywall-server's codes beside Parse's 1 to 4: a `since` the log no longer holds, and a
    /// client closed for reading too slowly.
    static let resyncNeeded = 5
    static let tooSlow = 6

    private static func resync(since: Int64, _ page: PostChangePage) -> LiveQueryRefusal {
        let why = since > page.latest ? "is ahead of this wall's log (at \(page.latest))" : "is older than the change log, which starts after \(page.prunedThrough)"
        return LiveQueryRefusal(code: resyncNeeded, message: "since \(since) \(why): read the wall again (subscribe with snapshot) and resume from its seq",
                                reconnect: false)
    }

    private static func refusal(_ error: Error) -> LiveQueryRefusal {
        switch error {
        case let refusal as LiveQueryRefusal: return refusal
        case let error as ParseError: return .parse(error.code ?? ParseErrorCode.invalidQuery, error.message)
        case let error as AnywallError:
            if let refusal = ParseRefusal(error) { return .parse(refusal.error.code ?? ParseErrorCode.internalServerError, refusal.error.message) }
            ServerLog.event("error", ["error": .string("LiveQuery: \(error)")])
            return .parse(ParseErrorCode.internalServerError, "Internal server error.")
        case let exceeded as QueryTimeLimit.Exceeded:
            return .parse(ParseErrorCode.timeout, exceeded.description)
        default:
            ServerLog.event("error", ["error": .string("LiveQuery: \(error)")])
            return .parse(ParseErrorCode.internalServerError, "Internal server error.")
        }
    }

    /// A requestId as JavaScript prints it.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
