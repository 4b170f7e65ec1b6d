import AnywallSupport
import EmbeddedStore
import Foundation
import Hummingbird
import NIOCore
import ParseWire
import WallDomain

/// A request's JSON body, read only up to a bound: a body declared larger is refused before any
/// of it is read, and one that grows past the bound (chunked) is refused as soon as it does.
enum RequestBody {
    /// Far more than any post, sign-up or config change needs.
    static let maxBytes = 64 * 1024

    /// The body as a JSON object; an empty body is `{}`, as Parse takes it.
    static func object(_ request: Request) async throws -> [String: JSONValue] {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxBytes {
            throw BodyTooLarge()
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw BodyTooLarge()
        }
        guard buffer.readableBytes > 0 else { return [:] }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView)) else {
            throw ParseRefusal.invalidJSON
        }
        return object
    }
}

/// A request body over `RequestBody.maxBytes`: answered 413 and the connection closed, so the
/// rest of it is never read.
struct BodyTooLarge: Error {}
