import Synchronization

/// What the server has yet to send one LiveQuery client, bounded in bytes so that a client that
/// stops reading costs the server no more than `limit`. When an event would pass the limit, the
/// events waiting are dropped and the client is sent only `overflow` (which names the seq to
/// resume from), then closed: it resubscribes with `since` and misses nothing.
package final class LiveQueue: Sendable {
    package struct Message: Sendable {
        let text: String
        /// The subscription and seq of an event, noted as written once it is.
        let event: (requestId: Double, seq: Int64)?
    }

    private struct State {
        var waiting: [Message] = []
        var head = 0
        var bytes = 0
        var reader: CheckedContinuation<Message?, Never>?
        /// A writer waiting for room, and the bytes it needs.
        var roomWaiter: (bytes: Int, continuation: CheckedContinuation<Void, Never>)?
        var closed = false
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds `message`; when it does not fit, drops what waits, queues `overflow()` alone and
    /// closes the queue, and answers false.
    @discardableResult
    func push(_ message: Message, overflow: () -> Message) -> Bool {
        let (reader, delivered, fits): (CheckedContinuation<Message?, Never>?, Message?, Bool) = state.withLock { state in
            guard !state.closed else { return (nil, nil, false) }
            var message = message
            var fits = true
            // An empty queue takes one message of any size (a large snapshot).
            if state.bytes > 0, state.bytes + message.text.utf8.count > limit {
                state.waiting.removeAll()
                state.head = 0
                state.bytes = 0
                state.closed = true
                message = overflow()
                fits = false
            }
            // Room for none: a replay waiting for it goes on, and finds the queue closed.
            if state.closed, let waiter = state.roomWaiter {
                state.roomWaiter = nil
                waiter.continuation.resume()
            }
            if let reader = state.reader {
                state.reader = nil
                return (reader, message, fits)
            }
            state.waiting.append(message)
            state.bytes += message.text.utf8.count
            return (nil, nil, fits)
        }
        reader?.resume(returning: delivered)
        return fits
    }

    /// Waits until `bytes` more fit (or the queue closed): what a replay of many events waits on
    /// between them, so that only a client that stops reading overflows, not one that reads.
    func room(for bytes: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fits = state.withLock { state in
                guard !state.closed, state.bytes > 0, state.bytes + bytes > limit else { return true }
                state.roomWaiter = (bytes, continuation)
                return false
            }
            if fits { continuation.resume() }
        }
    }

    /// The next message to send; nil once the queue is closed and nothing waits.
    package func next() async -> Message? {
        await withCheckedContinuation { continuation in
            let (ready, room): (Message??, CheckedContinuation<Void, Never>?) = state.withLock { state in
                if state.head < state.waiting.count {
                    let message = state.waiting[state.head]
                    state.head += 1
                    state.bytes -= message.text.utf8.count
                    if state.head == state.waiting.count {
                        state.waiting.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                    var room: CheckedContinuation<Void, Never>?
                    if let waiter = state.roomWaiter, state.bytes == 0 || state.bytes + waiter.bytes <= limit {
                        room = waiter.continuation
                        state.roomWaiter = nil
                    }
                    return (.some(message), room)
                }
                if state.closed { return (.some(nil), nil) }
                state.reader = continuation
                return (.none, nil)
            }
            room?.resume()
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Sends nothing more than what waits; the client's reader ends once it is sent.
    package func close() {
        let (reader, room) = state.withLock { state -> (CheckedContinuation<Message?, Never>?, CheckedContinuation<Void, Never>?) in
            state.closed = true
            defer {
                state.reader = nil
                state.roomWaiter = nil
            }
            return (state.waiting.isEmpty ? state.reader : nil, state.roomWaiter?.continuation)
        }
        reader?.resume(returning: nil)
        room?.resume()
    }
}
