import Foundation

/// A position reported by a location source.
public struct Fix: Equatable, Sendable {
    /// Where the source says we are.
    public let point: GeoPoint
    /// Which source gave it, as printed by `where`: `fixed`, `gpsd:HOST:PORT`, `nmea:PATH`.
    public let source: String
    /// When the source took the fix, if it says.
    public let time: Date?
    /// How far off the fix may be, if the source says.
    public let accuracy: Distance?

    public init(point: GeoPoint, source: String, time: Date? = nil, accuracy: Distance? = nil) {
        self.point = point
        self.source = source
        self.time = time
        self.accuracy = accuracy
    }
}
