import AnywallSupport
import Foundation
import WallDomain

/// Where a command learns the user's position: a fixed point, an NMEA feed or gpsd.
public protocol LocationSource: Sendable {
    /// A stable name for the source (`fixed`, `nmea:PATH`, `gpsd:HOST:PORT`), used in `where`
    /// output and to tell saved queries apart.
    var name: String { get }
    /// Starts reading the source. With `keepTrying`, a source that can drop away (gpsd) reconnects
    /// with a warning instead of failing; `stop` interrupts any wait.
    func open(stop: StopSignal?, keepTrying: Bool) throws -> FixFeed
}

extension LocationSource {
    /// The first valid fix, waiting at most `timeout`; `waiting` is called about once a second
    /// meanwhile with the time waited so far (for a status line).
    public func firstFix(timeout: Duration, waiting: (Duration) -> Void = { _ in }) throws -> Fix {
        let feed = try open(stop: nil, keepTrying: false)
        defer { feed.close() }
        let start = ContinuousClock.now
        let deadline = start + timeout
        while true {
            let now = ContinuousClock.now
            guard now < deadline else { throw noFix(within: timeout) }
            switch try feed.next(until: min(deadline, now + .seconds(1))) {
            case .fix(let fix): return fix
            case .end: throw noFixBeforeEnd()
            case .fixLost, .warning, nil: waiting(ContinuousClock.now - start)
            }
        }
    }

    /// The error when the input ended before any fix: `no location fix in SOURCE: ...`.
    public func noFixBeforeEnd() -> AnywallError {
        .noFix("no location fix in \(name): the input ended without one")
    }

    /// The error when no fix came within `timeout`: `no location fix from SOURCE within N s`.
    public func noFix(within timeout: Duration) -> AnywallError {
        .noFix("no location fix from \(name) within \(timeout.readable)")
    }
}
