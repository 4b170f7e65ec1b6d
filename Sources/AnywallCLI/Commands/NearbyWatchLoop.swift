import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// Runs `nearby --watch`: reads the location feed and prints what changes at once. When the wall
/// offers LiveQuery it listens (`LiveNearbyListener`); otherwise, or when the subscription cannot
/// be had, the core's `NearbyWatch` asks again on moves and every interval, and that is said once
/// on stderr. Ends at the end of NMEA input, or on SIGINT/SIGTERM after letting go of the source
/// (gpsd is told to stop watching) and the socket, by that signal.
struct NearbyWatchLoop {
    let source: LocationSource
    let watch: NearbyWatch
    /// How to listen, when the wall offers LiveQuery; it starts at the first fix.
    let listen: ((Fix) throws -> LiveNearbyListener)?
    let printer: EventStreamPrinter
    /// How long to wait for the first fix.
    let fixTimeout: Duration

    /// How long a wait for the feed may last while listening: the socket's updates arrive on other
    /// threads, and the feed's wait knows only its descriptor and the stop signal. 20 ms keeps a new
    /// post well within the 100 ms the design promises, at 50 cheap wake-ups a second.
    static let listeningSlice = Duration.milliseconds(20)

    func run() throws {
        // A resize wakes the loop, so a map is redrawn at once; other printers ignore it.
        let stop = try StopSignal(waking: [SIGWINCH])
        let feed = try source.open(stop: stop, keepTrying: true)
        let status = StatusLine()
        let start = ContinuousClock.now
        var outage = false
        var firstFixBy: ContinuousClock.Instant? = start + fixTimeout
        var listener: LiveNearbyListener?
        var asking = listen == nil
        defer { listener?.stop() }
        write(printer.opening)
        do {
            loop: while stop.received == nil {
                let now = ContinuousClock.now
                // While waiting for a fix, wake once a second for the status line; after it, only for
                // the feed, the next query, the socket's updates and signals (a resize among them).
                let statusTick = firstFixBy.map { _ in now + .seconds(1) }
                var deadline = [asking ? watch.nextQuery : nil, firstFixBy, statusTick].compactMap { $0 }.min() ?? .now + .seconds(3600)
                if listener != nil { deadline = min(deadline, now + Self.listeningSlice) }
                switch try feed.next(until: deadline) {
                case .fix(let fix):
                    firstFixBy = nil
                    status.clear()
                    write(printer.render(movedTo: fix))
                    if asking {
                        try survivingOutages(&outage) { try watch.update(with: fix, now: ContinuousClock.now) }
                    } else if let listener {
                        emit(try listener.move(to: fix))
                    } else if let listen {
                        listener = try listen(fix)
                    }
                case .fixLost:
                    Terminal.warn("lost the location fix from \(source.name); waiting for it to come back")
                case .warning(let message):
                    Terminal.warn(message)
                case .end:
                    if firstFixBy != nil { throw source.noFixBeforeEnd() }
                    break loop
                case nil:
                    if let firstFixBy {
                        guard ContinuousClock.now < firstFixBy else { throw source.noFix(within: fixTimeout) }
                        status.showWaiting(for: source, waited: ContinuousClock.now - start)
                    }
                }
                if let current = listener {
                    switch try current.takeUpdates(warn: Terminal.warn) {
                    case .events(let events):
                        emit(events)
                    case .unavailable(let reason):
                        listener = nil
                        asking = true
                        askInstead(because: reason)
                        try survivingOutages(&outage) { try watch.update(with: current.latestFix, now: ContinuousClock.now) }
                    }
                }
                if asking, let due = watch.nextQuery, ContinuousClock.now >= due {
                    try survivingOutages(&outage) { try watch.refresh(now: ContinuousClock.now) }
                }
                write(printer.renderIfResized())
            }
        } catch {
            status.clear()
            feed.close()
            write(printer.closing)
            throw error
        }
        status.clear()
        feed.close()
        write(printer.closing)
        if stop.received != nil {
            listener?.stop()
            stop.endProcessBySignal()
        }
    }

    /// Says, once, that the wall is asked again rather than listened to.
    private func askInstead(because reason: String) {
        Terminal.note("anywall: \(reason): asking the wall again every \(watch.interval.readable) and after moving \(watch.minMove.flagForm)")
    }

    /// Prints the events of a query; when the wall is out of reach, warns once (and once when it
    /// answers again) and goes on with the posts it holds.
    private func survivingOutages(_ outage: inout Bool, _ query: () throws -> [ChangeEvent]) throws {
        do {
            let events = try query()
            if outage {
                outage = false
                Terminal.warn("\(watch.wallDescription) answers again")
            }
            emit(events)
        } catch let error as AnywallError where error.isOutage {
            if !outage { Terminal.warn("\(error.wording); trying again every \(NearbyWatch.retryDelay.readable)") }
            outage = true
        }
    }

    private func emit(_ events: [ChangeEvent]) {
        guard !events.isEmpty else { return }
        write(printer.render(events))
    }

    /// Writes what the printer made, if anything.
    private func write(_ text: String) {
        if !text.isEmpty { Terminal.output(text) }
    }
}
