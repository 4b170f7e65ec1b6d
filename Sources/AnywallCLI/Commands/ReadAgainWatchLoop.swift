import AnywallSupport
import Foundation
import LiveQueryClient
import ParseWire
import WallDomain

/// Runs `thread --watch` and `activity --watch`: reads what the command shows, prints it, and
/// reads again whenever the wall pushes a change over LiveQuery (a subscription with the read's
/// own `where`), printing only what is new. Without LiveQuery it reads again every `interval`
/// and says so once on stderr, as `nearby --watch` does. The read is the command's own, so what
/// shows (hidden text, removals, the feed's gathering of votes) is what the command shows.
/// Ends on SIGINT/SIGTERM, by that signal, after closing the socket.
struct ReadAgainWatchLoop {
    /// What the wall offers to listen to (nil: the embedded wall).
    let offer: LiveQueryOffer?
    /// The wall, for the message that says it is asked rather than listened to.
    let wallDescription: String
    let className: String
    /// The subscription's `where`, known after the first read.
    let clause: () throws -> JSONValue
    let interval: Duration
    /// Reads and prints what is new since the previous read.
    let read: () throws -> Void

    /// How long a wait lasts while listening: the socket's updates arrive on other threads.
    static let listeningSlice = NearbyWatchLoop.listeningSlice

    func run() throws {
        let stop = try StopSignal()
        try read()
        let inbox = UpdateInbox()
        var subscription = try offer.map { try $0.subscription(className: className, where: clause(), deliver: inbox.put) }
        subscription?.start()
        defer { subscription?.stop() }
        var nextRead = ContinuousClock.now + interval
        var outage = false
        while stop.received == nil {
            let now = ContinuousClock.now
            stop.wait(until: subscription == nil ? nextRead : now + Self.listeningSlice)
            guard stop.received == nil else { break }
            if let current = subscription {
                var readAgain = false
                for update in inbox.take() {
                    switch update {
                    case .interrupted(let reason):
                        Terminal.warn("\(reason); reconnecting to \(current.address.url)")
                    case .resumed:
                        Terminal.warn("listening to \(current.address.url) again")
                    case .unavailable(let reason):
                        current.stop()
                        subscription = nil
                        askInstead(because: reason)
                        nextRead = ContinuousClock.now
                    case .snapshot, .listNeeded, .matches, .leaves:
                        readAgain = true
                    }
                }
                if readAgain { try survivingOutages(&outage) }
            }
            if subscription == nil, ContinuousClock.now >= nextRead {
                try survivingOutages(&outage)
                nextRead = ContinuousClock.now + interval
            }
        }
        subscription?.stop()
        stop.endProcessBySignal()
    }

    private func askInstead(because reason: String) {
        Terminal.note("anywall: \(reason): asking the wall again every \(interval.readable)")
    }

    /// Reads; when the wall is out of reach, warns once (and once when it answers again).
    private func survivingOutages(_ outage: inout Bool) throws {
        do {
            try read()
            if outage {
                outage = false
                Terminal.warn("\(wallDescription) answers again")
            }
        } catch let error as AnywallError where error.isOutage {
            if !outage { Terminal.warn("\(error.wording); trying again") }
            outage = true
        }
    }

    /// The updates the socket's threads deliver, kept until the loop takes them.
    private final class UpdateInbox: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: [LiveUpdate] = []
        func put(_ update: LiveUpdate) { lock.withLock { waiting.append(update) } }
        func take() -> [LiveUpdate] {
            lock.withLock {
                defer { waiting = [] }
                return waiting
            }
        }
    }
}
