import Foundation

/// Where "now" comes from, so tests can move time instead of sleeping.
public struct WallClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system's clock.
    public static let system = WallClock { Date() }
}
