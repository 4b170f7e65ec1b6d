import AnywallSupport
import Foundation
import Hummingbird
import NIOCore
import ParseWire
import Synchronization
import WallDomain

/// A request's JSON body, read only up to a bound and a deadline: a body declared larger is
/// refused before any of it is read, one that grows past the bound (chunked) as soon as it does,
/// and one still arriving at the context's `bodyDeadline` then.
enum RequestBody {
    /// Far more than any post, sign-up or config change needs.
    static let maxBytes = 64 * 1024

    /// The body as a JSON object; an empty body is `{}`, as Parse takes it.
    static func object(_ request: Request, _ context: ParseContext) async throws -> [String: JSONValue] {
        guard case .object(let object) = try await value(request, context) else { throw ParseRefusal.invalidJSON }
        return object
    }

    /// The body as any JSON value, for a route that answers other shapes in its own words; an
    /// empty body is `{}`.
    static func value(_ request: Request, _ context: ParseContext) async throws -> JSONValue {
        let buffer = try await bytes(request, context)
        guard buffer.readableBytes > 0 else { return .object([:]) }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView)) else {
            throw ParseRefusal.invalidJSON
        }
        return value
    }

    /// The body's bytes, within the bound and the deadline.
    static func bytes(_ request: Request, _ context: ParseContext) async throws -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxBytes {
            throw BodyTooLarge()
        }
        do {
            return try await collect(request.body, by: context.bodyDeadline, on: context.eventLoop)
        } catch is NIOTooManyBytesError {
            throw BodyTooLarge()
        }
    }

    /// The whole body, or `BodyTimedOut` when it has not all arrived by `deadline`. The deadline is
    /// a timer of the connection's event loop, removed when the body comes: a `Task.sleep` would be
    /// held by the runtime until it ran out, even cancelled (30 s of every request's timer).
    private static func collect(_ body: Hummingbird.RequestBody, by deadline: ContinuousClock.Instant,
                                on eventLoop: (any EventLoop)?) async throws -> ByteBuffer {
        guard let eventLoop else { return try await body.collect(upTo: maxBytes) }
        let collecting = Task { try await body.collect(upTo: maxBytes) }
        let expiry = Expiry()
        let left = ContinuousClock.now.duration(to: deadline).components
        let timer = eventLoop.scheduleTask(in: .nanoseconds(max(0, left.seconds * 1_000_000_000 + left.attoseconds / 1_000_000_000))) {
            expiry.expired.store(true, ordering: .sequentiallyConsistent)
            collecting.cancel()
        }
        defer { timer.cancel() }
        // A body cut short by the timer may come back part-read, or as a cancellation: the flag says which.
        do {
            let buffer = try await withTaskCancellationHandler { try await collecting.value } onCancel: { collecting.cancel() }
            if !expiry.expired.load(ordering: .sequentiallyConsistent) { return buffer }
        } catch {
            if !expiry.expired.load(ordering: .sequentiallyConsistent) { throw error }
        }
        throw BodyTimedOut()
    }

    /// Whether a body's timer ran out, set on the event loop, read by the request's task.
    private final class Expiry: Sendable {
        let expired = Atomic<Bool>(false)
    }
}

/// A request body over `RequestBody.maxBytes`: answered 413 and the connection closed, so the
/// rest of it is never read.
struct BodyTooLarge: Error {}

/// A request body still arriving at its deadline: answered 408 and the connection closed.
struct BodyTimedOut: Error {}
