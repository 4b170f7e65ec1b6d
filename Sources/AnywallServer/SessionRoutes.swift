import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// `GET /sessions/me`: the caller's own session, as Parse's `Parse.Session.current()` asks for it.
/// Every anywall session is revocable (ended by `/logout`), as Parse Server's are, so the
/// `X-Parse-Revocable-Session` header clients send changes nothing.
struct SessionRoutes {
    let wall: any WallStore

    func register(on routes: RouterGroup<ParseContext>) {
        routes.get("sessions/me") { _, context in
            // Parse Server's SessionsRouter words for a request without a token.
            guard let token = context.caller.sessionToken else {
                throw ParseRefusal(ParseErrorCode.invalidSessionToken, "Session token required.")
            }
            // KeyCheck found the session's user already (an unknown token never gets here).
            guard let user = context.caller.user else { throw ParseRefusal.invalidSessionToken }
            let period = try await wall.sessionPeriod(token: token)
            return ParseAnswer.json(ParseRendering.session(token: token, user: user, started: period.started, expires: period.expires))
        }
    }
}
