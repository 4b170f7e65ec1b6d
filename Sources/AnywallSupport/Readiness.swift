import Foundation
import WallDomain

/// Waits, without spinning, until a descriptor has something to read, a stop signal arrives or a
/// deadline passes.
public enum Readiness: Equatable, Sendable {
    case readable
    case stopped
    case timedOut
    /// One of the stop signal's wake signals arrived (the terminal was resized): the caller may
    /// act on it and wait again.
    case woken

    /// Waits on `descriptor` (none: only the stop signal and the clock) until `deadline`.
    public static func wait(for descriptor: Int32?, stop: StopSignal?, until deadline: ContinuousClock.Instant,
                            events: Int16 = Int16(POLLIN)) -> Readiness {
        var fds: [pollfd] = []
        if let descriptor { fds.append(pollfd(fd: descriptor, events: events, revents: 0)) }
        if let stop { fds.append(pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)) }
        while true {
            if stop?.received != nil { return .stopped }
            if stop?.takeWake() == true { return .woken }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            for i in fds.indices { fds[i].revents = 0 }
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return .readable  // let the read report the error
            }
            if stop?.received != nil { return .stopped }
            if stop?.takeWake() == true { return .woken }
            if ready > 0, descriptor != nil, fds[0].revents != 0 { return .readable }
        }
    }
}
