import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into something a long-running loop can wait on: a pipe that becomes
/// readable when one arrives, so the loop stops between two steps, cleans up, and then ends the
/// process by that signal as the shell expects.
public final class StopSignal: @unchecked Sendable {
    /// Becomes readable once a signal has arrived; poll it beside the loop's own descriptors.
    public let descriptor: Int32
    private let writeEnd: Int32
    private let signals: [Int32]
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var caught: Int32?

    /// Catches `signals` (SIGINT and SIGTERM) from now on.
    public init(signals: [Int32] = [SIGINT, SIGTERM]) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw AnywallError.failure("cannot create a pipe: \(String(cString: strerror(errno)))") }
        descriptor = ends[0]
        writeEnd = ends[1]
        self.signals = signals
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.raise(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// The signal that arrived, if one did.
    public var received: Int32? {
        lock.withLock { caught }
    }

    private func raise(_ number: Int32) {
        lock.withLock {
            if caught == nil { caught = number }
        }
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(writeEnd, &byte, 1)
    }

    /// Ends the process by the signal that arrived, after the caller has cleaned up, so a shell
    /// sees the command was interrupted rather than finished.
    public func endProcessBySignal() -> Never {
        let number = received ?? SIGTERM
        for source in sources { source.cancel() }
        signal(number, SIG_DFL)
        kill(getpid(), number)
        // The signal is delivered before kill returns; this only satisfies the type checker.
        exit(128 + number)
    }
}
