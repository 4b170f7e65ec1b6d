import AnywallSupport
import WallDomain
/// The events a feed has read but not yet handed out, in order, and whether the source last said
/// it had a fix, so that losing the fix is reported once (NMEA and gpsd feeds alike).
struct FeedQueue {
    private var events: [FeedEvent] = []
    private var nextEvent = 0
    private var hasFix = false

    /// The source gave a position.
    mutating func fix(_ fix: Fix) {
        hasFix = true
        events.append(.fix(fix))
    }

    /// The source said it has no fix: `fixLost` if it had one.
    mutating func noFix() {
        guard hasFix else { return }
        hasFix = false
        events.append(.fixLost)
    }

    mutating func warning(_ message: String) {
        events.append(.warning(message))
    }

    /// The source went away: whatever it says next, it is not losing a fix it had.
    mutating func forgetFix() {
        hasFix = false
    }

    /// The oldest event not yet handed out.
    mutating func next() -> FeedEvent? {
        guard nextEvent < events.count else {
            events.removeAll(keepingCapacity: true)
            nextEvent = 0
            return nil
        }
        defer { nextEvent += 1 }
        return events[nextEvent]
    }
}
