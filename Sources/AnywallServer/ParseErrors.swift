import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// Turns whatever a route throws into Parse's error answers: refusals as they are, the wall's
/// own errors as their Parse codes, anything unexpected as Parse's 500 (logged, never shown).
struct ParseErrors: RouterMiddleware {
    typealias Context = ParseContext

    func handle(_ request: Request, context: ParseContext, next: (Request, ParseContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.answer(error, to: request, context: context)
        }
    }

    /// The answer to `error`, for this middleware and for what runs before the routes (the
    /// method override reads bodies before any route is chosen).
    static func answer(_ error: Error, to request: Request, context: ParseContext) throws -> Response {
        switch error {
        case let refusal as ParseRefusal:
            return refusal.response
        case let error as ParseError:
            return ParseRefusal(error).response
        case let error as AnywallError:
            if let refusal = ParseRefusal(error) { return refusal.response }
            return failed(request, error)
        case let exceeded as QueryTimeLimit.Exceeded:
            // Parse's code for a request too costly to run: the client's doing, not logged as a failure.
            return ParseRefusal(ParseErrorCode.timeout, exceeded.description).response
        case is BodyTooLarge:
            return ParseAnswer.json(["error": .string("request entity too large")], status: .contentTooLarge,
                                    headers: [.connection: "close"])
        case is BodyTimedOut:
            return ParseAnswer.json(["error": .string("request timeout: the body did not arrive in time")], status: .requestTimeout,
                                    headers: [.connection: "close"])
        case let error as HTTPResponseError:
            return try error.response(from: request, context: context)
        default:
            return failed(request, error)
        }
    }

    /// Parse's 500 for what is not the client's doing, with the cause in the log only.
    private static func failed(_ request: Request, _ error: Error) -> Response {
        ServerLog.event("error", ["path": .string(request.uri.path), "error": .string(String(describing: error))])
        return ParseRefusal.internalError.response
    }
}
