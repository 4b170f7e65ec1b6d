import AnywallSupport
import Foundation
import Hummingbird
import NIOCore
import ParseWire
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
            return try await collect(request.body, by: context.bodyDeadline)
        } catch is NIOTooManyBytesError {
            throw BodyTooLarge()
        }
    }

    /// The whole body, or `BodyTimedOut` when it has not all arrived by `deadline`.
    private static func collect(_ body: Hummingbird.RequestBody, by deadline: ContinuousClock.Instant) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: maxBytes) }
            group.addTask {
                try await Task.sleep(until: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else { throw BodyTimedOut() }
            return buffer
        }
    }
}

/// A request body over `RequestBody.maxBytes`: answered 413 and the connection closed, so the
/// rest of it is never read.
struct BodyTooLarge: Error {}

/// A request body still arriving at its deadline: answered 408 and the connection closed.
struct BodyTimedOut: Error {}
