import Foundation

/// How long a session lasts from its log-in (Parse Server's `sessionLength`): past it the session
/// is over, whatever its token, on every store.
public struct SessionLength: Sendable {
    public let duration: Duration

    public init(_ duration: Duration) {
        self.duration = duration
    }

    /// When the oldest session still open at `now` began.
    public func oldestOpenStart(at now: Date) -> Date {
        now.addingTimeInterval(-seconds)
    }

    /// When a session begun at `start` ends.
    public func end(ofSessionStartedAt start: Date) -> Date {
        start.addingTimeInterval(seconds)
    }

    private var seconds: Double { Double(duration.components.seconds) }
}
