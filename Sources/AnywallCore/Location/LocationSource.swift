import Foundation

/// Where a command learns the user's position: a fixed point, an NMEA feed or gpsd.
public protocol LocationSource: Sendable {
    /// A stable name for the source, used in `where` output and to tell queries apart.
    var name: String { get }
    /// The first valid fix, waiting at most `timeout` for it.
    func firstFix(timeout: Duration) throws -> Fix
}

/// A position given on the command line or in settings (`--at LAT,LON`); it never moves.
public struct FixedLocation: LocationSource {
    public let point: GeoPoint

    /// A source that always reports `point`.
    public init(_ point: GeoPoint) {
        self.point = point
    }

    public var name: String { "fixed" }

    public func firstFix(timeout: Duration) throws -> Fix {
        Fix(point: point, source: name)
    }
}
