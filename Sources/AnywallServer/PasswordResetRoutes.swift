import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// `POST /requestPasswordReset`: anywall-server sends no email, so it answers as Parse Server
/// without an email adapter does, before it looks at the address.
struct PasswordResetRoutes {
    /// Parse Server's UsersRouter message for a server that cannot send email.
    static let message = "An appName, publicServerURL, and emailAdapter are required for password reset and email verification functionality."

    func register(on routes: RouterGroup<ParseContext>) {
        routes.post("requestPasswordReset") { request, context in
            // Read, so that a body too large, too slow or not JSON gets the answer any other route gives it.
            _ = try await RequestBody.object(request, context)
            // Parse throws this as a Parse error with code 1, so it is written with `error`, not the
            // `message` of an uncaught error (which `ParseRefusal` writes for code 1).
            return ParseAnswer.json(["code": .number(Double(ParseErrorCode.internalServerError)), "error": .string(Self.message)],
                                    status: .internalServerError)
        }
    }
}
