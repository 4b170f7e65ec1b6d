import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// Runs `nearby --watch`: reads the location feed, lets the core's `NearbyWatch` decide what
/// changed, prints it at once. Ends at the end of NMEA input, or on SIGINT/SIGTERM after letting
/// go of the source (gpsd is told to stop watching), by that signal.
struct NearbyWatchLoop {
    let source: LocationSource
    let watch: NearbyWatch
    let printer: EventStreamPrinter
    /// How long to wait for the first fix.
    let fixTimeout: Duration

    func run() throws {
        let stop = try StopSignal()
        let feed = try source.open(stop: stop, keepTrying: true)
        let status = StatusLine()
        let start = ContinuousClock.now
        var outage = false
        var firstFixBy: ContinuousClock.Instant? = start + fixTimeout
        do {
            loop: while stop.received == nil {
                let now = ContinuousClock.now
                // Wake at least once a second, for the status line while waiting for a fix.
                let deadline = [watch.nextQuery, firstFixBy, now + .seconds(1)].compactMap { $0 }.min()!
                switch try feed.next(until: deadline) {
                case .fix(let fix):
                    firstFixBy = nil
                    status.clear()
                    try survivingOutages(&outage) { try watch.update(with: fix, now: ContinuousClock.now) }
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
                if let due = watch.nextQuery, ContinuousClock.now >= due {
                    try survivingOutages(&outage) { try watch.refresh(now: ContinuousClock.now) }
                }
            }
        } catch {
            status.clear()
            feed.close()
            throw error
        }
        status.clear()
        feed.close()
        if stop.received != nil { stop.endProcessBySignal() }
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
        Terminal.output(printer.render(events))
    }
}
