import Foundation
import WallDomain

/// Where the signal handler writes; set once, before the handler is installed.
nonisolated(unsafe) private var stopPipeWriteEnd: Int32 = -1

/// Turns SIGINT and SIGTERM into something a long-running loop can wait on: a pipe that becomes
/// readable when one arrives (the self-pipe trick), so the loop stops between two steps, cleans
/// up, and then ends the process by that signal as the shell expects. Signals that only ask for
/// attention (SIGWINCH: the terminal was resized) go through the same pipe, so a waiting loop wakes
/// for them too without stopping.
public final class StopSignal: @unchecked Sendable {
    /// Becomes readable once a signal has arrived; poll it beside the loop's own descriptors.
    public let descriptor: Int32
    private var caught: Int32?
    private let wakeSignals: Set<Int32>
    private var woken = false

    /// Catches SIGINT and SIGTERM from now on, and `wakeSignals` as wake-ups. One per process.
    public init(waking wakeSignals: Set<Int32> = []) throws {
        self.wakeSignals = wakeSignals
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw AnywallError.failure("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        stopPipeWriteEnd = ends[1]
        for number in Self.signals + wakeSignals {
            var action = sigaction()
            // Only async-signal-safe work in the handler: one write to the pipe.
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(stopPipeWriteEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        // A parent may have started us with these signals blocked (Foundation's Process passes its
        // thread's mask on): unblock them, or they would never arrive.
        Self.unblock(Self.signals + wakeSignals)
    }

    private static let signals = [SIGINT, SIGTERM]

    /// The stop signal that arrived, if one did.
    public var received: Int32? {
        drain()
        return caught
    }

    /// Whether a wake signal arrived since the last call.
    public func takeWake() -> Bool {
        drain()
        defer { woken = false }
        return woken
    }

    /// Reads what the handler wrote, up to the first stop signal (which stays readable for every waiter).
    private func drain() {
        var byte: UInt8 = 0
        while caught == nil, read(descriptor, &byte, 1) == 1 {
            let number = Int32(byte)
            if wakeSignals.contains(number) { woken = true } else { caught = number }
        }
    }

    /// Waits until `deadline` or a signal, whichever comes first.
    public func wait(until deadline: ContinuousClock.Instant) {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero, received == nil else { return }
        let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&watched, 1, max(milliseconds, 1))
    }

    /// Ends the process by the signal that arrived, after the caller has cleaned up, so a shell
    /// sees the command was interrupted rather than finished.
    public func endProcessBySignal() -> Never {
        let number = received ?? SIGTERM
        signal(number, SIG_DFL)
        Self.unblock([number])
        raise(number)
        // Not reached: the signal ends the process. The exit status a shell would show otherwise.
        exit(128 + number)
    }

    private static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
