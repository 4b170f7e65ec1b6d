import AnywallCore
import Hummingbird

/// Turns whatever a route throws into Parse's error answers: refusals as they are, the wall's
/// own errors as their Parse codes, anything unexpected as Parse's 500 (logged, never shown).
struct ParseErrors: RouterMiddleware {
    typealias Context = ParseContext

    func handle(_ request: Request, context: ParseContext, next: (Request, ParseContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let refusal as ParseRefusal {
            return refusal.response
        } catch is DuplicatePost {
            return ParseRefusal.duplicateRequest.response
        } catch is PostNotWritable {
            return ParseRefusal.objectNotFound.response
        } catch is BodyTooLarge {
            return ParseAnswer.json(["error": .string("request entity too large")], status: .contentTooLarge,
                                    headers: [.connection: "close"])
        } catch AnywallError.sessionExpired {
            return ParseRefusal.invalidSessionToken.response
        } catch let error as HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch {
            ServerLog.event("error", ["path": .string(request.uri.path), "error": .string(String(describing: error))])
            return ParseRefusal.internalError.response
        }
    }
}
