import Foundation
import Hummingbird
import WallDomain

/// One JSON line on stderr per request: when, from where, method, path (never the query, which
/// may hold a password on `GET /login`, and never a header), status, bytes sent and time taken.
/// Requests the server dispatches itself (a batch's sub-requests) are part of the one received.
struct AccessLog: RouterMiddleware {
    typealias Context = ParseContext

    func handle(_ request: Request, context: ParseContext, next: (Request, ParseContext) async throws -> Response) async throws -> Response {
        guard !context.isDispatched else { return try await next(request, context) }
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            write(request, context, status: response.status.code, bytes: response.body.contentLength, since: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            write(request, context, status: status, bytes: nil, since: start)
            throw error
        }
    }

    private func write(_ request: Request, _ context: ParseContext, status: Int, bytes: Int?, since start: ContinuousClock.Instant) {
        let milliseconds = (ContinuousClock.now - start).inSeconds * 1000
        ServerLog.write(Line(time: ParseDate.string(from: Date()), remote: context.remoteAddress ?? "-", method: request.method.rawValue,
                             path: request.uri.path, status: status, ms: (milliseconds * 100).rounded() / 100, bytes: bytes))
    }

    /// A request's line, as `ServerLog` writes events. A struct, not a dictionary of `JSONValue`s:
    /// encoding the dictionary was a twentieth of a nearby request.
    private struct Line: Encodable {
        var event = "request"
        let time, remote, method, path: String
        let status: Int
        let ms: Double
        let bytes: Int?
    }
}
