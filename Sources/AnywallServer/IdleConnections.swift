import Synchronization

/// The query connections not in use, handed out in turn. A find that finds none idle waits
/// without holding a thread: waiting on a Dispatch semaphore, a flood of slow finds held a thread
/// each, until Dispatch had none left for the writes and log-ins of everyone else.
final class IdleConnections: Sendable {
    private struct State {
        var idle: [Int]
        var waiting: [CheckedContinuation<Int, Never>] = []
    }

    private let state: Mutex<State>

    /// `count` connections, numbered from 0, all idle.
    init(count: Int) {
        state = Mutex(State(idle: Array(0..<count)))
    }

    /// An idle connection's number, if one is idle now.
    func takeIfIdle() -> Int? {
        state.withLock { $0.idle.popLast() }
    }

    /// An idle connection's number, once one is.
    func take() async -> Int {
        if let index = takeIfIdle() { return index }
        return await withCheckedContinuation { continuation in
            let taken: Int? = state.withLock { state in
                // Given back between the first look and now.
                if let index = state.idle.popLast() { return index }
                state.waiting.append(continuation)
                return nil
            }
            if let taken { continuation.resume(returning: taken) }
        }
    }

    /// Gives connection `index` back: to the longest waiting find, or to the idle ones.
    func give(_ index: Int) {
        let next: CheckedContinuation<Int, Never>? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.idle.append(index)
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume(returning: index)
    }
}
