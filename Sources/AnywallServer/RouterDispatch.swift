import Hummingbird
import Synchronization

/// The router's own responder, for the requests the server makes from one it received: the
/// request a method override stands for, and each of a batch's sub-requests. They take the same
/// routes, with the same rules (keys, sessions, limits), as the requests a client sends.
/// Set once every route is registered; the router and this hold each other for the server's life.
final class RouterDispatch: Sendable {
    private let responder = Mutex<(any HTTPResponder<ParseContext>)?>(nil)

    /// Takes the router's responder, built after its last route.
    func use(_ responder: some HTTPResponder<ParseContext>) {
        self.responder.withLock { $0 = responder }
    }

    /// The answer the router gives `request`, as the server's own (`isDispatched`) request.
    /// `routed` is false when no route takes its method and path.
    func respond(to request: Request, context: ParseContext) async throws -> (response: Response, routed: Bool) {
        guard let responder = responder.withLock({ $0 }) else { throw HTTPError(.serviceUnavailable) }
        var context = context
        context.isDispatched = true
        // A fresh one, so that what the router records of this request is not the received one's.
        context.coreContext.endpointPath = EndpointPath()
        let response = try await responder.respond(to: request, context: context)
        // Hummingbird's mark on a request no route took.
        return (response, context.coreContext.endpointPath.value != "NotFound")
    }
}
