import AnywallSupport
import WallDomain
/// What a location source says next, in watch mode or while waiting for a first fix.
public enum FeedEvent: Equatable, Sendable {
    /// A position.
    case fix(Fix)
    /// The receiver had a fix and now says it has none.
    case fixLost
    /// Something the user should know that does not stop the feed (gpsd went away, came back).
    case warning(String)
    /// The input ended (an NMEA file or pipe); no more fixes will come.
    case end
}

/// An open location source, read one event at a time.
public protocol FixFeed: AnyObject {
    /// The next event, waiting until `deadline` at most; nil when the deadline passed first or
    /// the stop signal arrived (the caller tells the two apart).
    func next(until deadline: ContinuousClock.Instant) throws -> FeedEvent?
    /// Lets go of the source (and tells gpsd to stop watching).
    func close()
}
