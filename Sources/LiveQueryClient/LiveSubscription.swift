import Foundation
import Logging
import ParseWire
import WSClient
import WallDomain

/// One LiveQuery subscription over a WebSocket (swift-websocket's client): it connects, subscribes,
/// hands its owner each update as it comes, and when the socket drops reconnects with backoff and
/// resumes from the last sequence it delivered.
///
/// The socket runs on the client's own threads; `deliver` is called from them, one update at a
/// time, in order.
public final class LiveSubscription: @unchecked Sendable {
    /// The first wait before reconnecting, doubled at each failure up to `longestWait`.
    static let firstWait = Duration.milliseconds(100)
    static let longestWait = Duration.seconds(5)
    /// How long a new socket may take to be subscribed before it counts as failed.
    static let subscribeTimeout = Duration.seconds(10)

    public let address: LiveQueryAddress
    private let deliver: @Sendable (LiveUpdate) -> Void
    // Guards `state`, `outgoing` and `task`: the owner's thread and the socket's both use them.
    private let lock = NSLock()
    private var state: SubscriptionState
    /// Where the current connection takes messages to send; nil between connections.
    private var outgoing: AsyncStream<String>.Continuation?
    private var task: Task<Void, Never>?

    /// A subscription to `className`'s objects matching `where` (nothing is sent before `start`).
    /// `sessionToken` makes the server apply the user's access; the master key is never sent.
    public init(address: LiveQueryAddress, applicationId: String, restKey: String?, sessionToken: String?,
                className: String, where clause: JSONValue, deliver: @escaping @Sendable (LiveUpdate) -> Void) {
        self.address = address
        self.deliver = deliver
        state = SubscriptionState(applicationId: applicationId, restKey: restKey, sessionToken: sessionToken,
                                  className: className, where: clause)
    }

    /// Connects and subscribes, on the client's threads.
    public func start() {
        lock.withLock { task = Task { await run() } }
    }

    /// Moves the subscription to a new `where` (`update`).
    public func recentre(where clause: JSONValue) {
        perform(lock.withLock { state.recentre(clause) })
    }

    /// Closes the socket; nothing is delivered after it returns.
    public func stop() {
        lock.withLock { task }?.cancel()
    }

    private func run() async {
        var wait = Self.firstWait
        while !Task.isCancelled {
            let (reason, subscribed) = await connection()
            guard !Task.isCancelled, perform(lock.withLock { state.closed(reason) }) == nil else { return }
            if subscribed { wait = Self.firstWait }
            do { try await Task.sleep(for: wait) } catch { return }
            wait = min(wait * 2, Self.longestWait)
        }
    }

    /// One socket, from connecting to its end: why it ended, and whether it was subscribed.
    private func connection() async -> (reason: String, subscribed: Bool) {
        let (messages, continuation) = AsyncStream.makeStream(of: String.self)
        lock.withLock { outgoing = continuation }
        defer {
            continuation.finish()
            lock.withLock { outgoing = nil }
        }
        let subscribed = Flag()
        let timedOut = Flag()
        do {
            let close = try await WebSocketClient.connect(url: address.url, configuration: Self.configuration, logger: Self.logger) {
                inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in messages { try await outbound.write(.text(text)) }
                    }
                    group.addTask {
                        // A server that never subscribes (a WebSocket that is no LiveQuery) is let go.
                        try await Task.sleep(for: Self.subscribeTimeout)
                        if !subscribed.isSet {
                            timedOut.set()
                            try await outbound.close(.goingAway, reason: nil)
                        }
                    }
                    _ = self.perform(self.lock.withLock { self.state.opened() })
                    for try await message in inbound.messages(maxSize: Self.largestMessage) {
                        guard case .text(let text) = message, let read = LiveQueryMessage(text: text) else { continue }
                        if case .subscribed = read { subscribed.set() }
                        if let end = self.perform(self.lock.withLock { self.state.received(read) }) { throw end }
                    }
                    group.cancelAll()
                }
            }
            if timedOut.isSet { return ("no subscription from \(address.url) within \(Self.subscribeTimeout.readable)", false) }
            let said = close?.reason.flatMap { $0.isEmpty ? nil : ": \($0)" } ?? ""
            return ("the LiveQuery server closed the connection\(said)", subscribed.isSet)
        } catch let ended as Ended {
            return (ended.reason, subscribed.isSet)
        } catch {
            return ("cannot reach the LiveQuery server at \(address.url): \(ConnectionFailure.wording(error))", subscribed.isSet)
        }
    }

    /// Carries out `steps`; the end of the connection they ask for, if any.
    @discardableResult
    private func perform(_ steps: [SubscriptionState.Step]) -> Ended? {
        for step in steps {
            switch step {
            case .send(let request):
                _ = lock.withLock { outgoing }?.yield(request.text)
            case .deliver(let update):
                deliver(update)
            case .reconnect(let reason):
                return Ended(reason: reason)
            case .stop:
                lock.withLock { task }?.cancel()
                return Ended(reason: "stopped")
            }
        }
        return nil
    }

    /// Why a connection is ended from this side.
    private struct Ended: Error {
        let reason: String
    }

    /// A flag set once, read from another task.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    /// A snapshot may be large: messages up to 64 MiB, in frames of up to 16 MiB. Pings every 30 s
    /// find a dead connection (a laptop's suspend, a NAT that forgot it) that no read would notice.
    private static let largestMessage = 64 << 20
    private static let configuration = WebSocketClientConfiguration(maxFrameSize: 16 << 20, autoPing: .enabled(timePeriod: .seconds(30)))
    /// The client's own logging is not the user's business: anywall says what matters on stderr.
    private static let logger = Logger(label: "anywall.livequery", factory: { _ in SwiftLogNoOpLogHandler() })
}
