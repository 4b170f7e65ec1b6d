import Hummingbird

/// Tells LiveQuery when a request that may have written has been answered, so that its events
/// leave at once rather than at the next reading of the log.
struct LiveWriteSignal: RouterMiddleware {
    typealias Context = ParseContext

    let hub: LiveQueryHub

    func handle(_ request: Request, context: ParseContext, next: (Request, ParseContext) async throws -> Response) async throws -> Response {
        defer { if request.method != .get && request.method != .head && request.method != .options { hub.poke() } }
        return try await next(request, context)
    }
}
