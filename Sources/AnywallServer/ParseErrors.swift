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
        } catch let refusal as ParseRefusal {
            return refusal.response
        } catch let error as ParseError {
            return ParseRefusal(error).response
        } catch let error as AnywallError {
            if let refusal = ParseRefusal(error) { return refusal.response }
            return failed(request, error)
        } catch is BodyTooLarge {
            return ParseAnswer.json(["error": .string("request entity too large")], status: .contentTooLarge,
                                    headers: [.connection: "close"])
        } catch is BodyTimedOut {
            return ParseAnswer.json(["error": .string("request timeout: the body did not arrive in time")], status: .requestTimeout,
                                    headers: [.connection: "close"])
        } catch let error as HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch {
            return failed(request, error)
        }
    }

    /// Parse's 500 for what is not the client's doing, with the cause in the log only.
    private func failed(_ request: Request, _ error: Error) -> Response {
        ServerLog.event("error", ["path": .string(request.uri.path), "error": .string(String(describing: error))])
        return ParseRefusal.internalError.response
    }
}
