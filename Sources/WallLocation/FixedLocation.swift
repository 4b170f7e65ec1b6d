import AnywallSupport
import Foundation
import WallDomain

/// A position given on the command line or in settings (`--at LAT,LON`); it never moves.
public struct FixedLocation: LocationSource {
    public let point: GeoPoint

    /// A source that always reports `point`.
    public init(_ point: GeoPoint) {
        self.point = point
    }

    public var name: String { "fixed" }

    public func open(stop: StopSignal?, keepTrying: Bool) throws -> FixFeed {
        FixedFeed(fix: Fix(point: point, source: name), stop: stop)
    }

    /// Says the point once, then waits for nothing but the clock and the stop signal.
    private final class FixedFeed: FixFeed {
        private var fix: Fix?
        private let stop: StopSignal?

        init(fix: Fix, stop: StopSignal?) {
            self.fix = fix
            self.stop = stop
        }

        func next(until deadline: ContinuousClock.Instant) throws -> FeedEvent? {
            if let fix {
                self.fix = nil
                return .fix(fix)
            }
            _ = Readiness.wait(for: nil, stop: stop, until: deadline)
            return nil
        }

        func close() {}
    }
}
