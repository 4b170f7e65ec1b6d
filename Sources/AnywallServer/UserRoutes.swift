import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// Accounts: `POST /users` (sign up), `GET|POST /login`, `POST /logout`, `GET /users/me`. Every
/// password check passes the `PasswordGate` first.
struct UserRoutes {
    let wall: any WallStore
    let mount: String
    let gate: PasswordGate

    func register(on routes: RouterGroup<ParseContext>) {
        routes.post("users") { request, context in try await signUp(request, context) }
        routes.get("login") { request, context in
            let parameters = Dictionary(QueryParameters.of(request), uniquingKeysWith: { first, _ in first })
            return try await logIn(username: parameters["username"], password: parameters["password"], from: context.remoteAddress)
        }
        routes.post("login") { request, context in
            let body = try await RequestBody.object(request, context)
            return try await logIn(username: body["username"]?.string, password: body["password"]?.string, from: context.remoteAddress)
        }
        routes.post("logout") { _, context in
            // Parse answers {} to a logout without a session.
            if let token = context.caller.sessionToken {
                try await wall.endSession(token: token)
            }
            return ParseAnswer.json([:])
        }
        routes.get("users/me") { _, context in
            guard let token = context.caller.sessionToken else { throw ParseRefusal.invalidSessionToken }
            let user = try await wall.user(token: token)
            return ParseAnswer.json(ParseRendering.user(user, sessionToken: token).json)
        }
    }

    private func signUp(_ request: Request, _ context: ParseContext) async throws -> Response {
        let body = try await RequestBody.object(request, context)
        if let extra = body.keys.first(where: { !["username", "password", "name", "ACL"].contains($0) }) {
            throw ParseRefusal(ParseErrorCode.invalidKeyName, "anywall-server keeps only username, password and name for a user, not \(extra)")
        }
        guard let username = body["username"]?.string, !username.isEmpty else {
            throw ParseRefusal(ParseErrorCode.usernameMissing, "bad or missing username")
        }
        guard let password = body["password"]?.string, !password.isEmpty else {
            throw ParseRefusal(ParseErrorCode.passwordMissing, "password is required")
        }
        let valid: String
        do {
            valid = try Username.validated(username)
        } catch let error as AnywallError {
            throw ParseRefusal(ParseErrorCode.validationFailed, error.reason)
        }
        let name = body["name"]?.string
        // The ACL sent is not kept: every account is public-read and its own to write.
        let (session, user) = try await gate.attempt(username: valid, address: context.remoteAddress) {
            do {
                return try await wall.signUp(username: valid, password: password, name: name)
            } catch AnywallError.usernameTaken {
                throw ParseRefusal(ParseErrorCode.usernameTaken, "Account already exists for this username.")
            }
        }
        return ParseAnswer.created(["objectId": .string(user.objectId), "createdAt": ParseRendering.date(user.createdAt),
                                    "sessionToken": .string(session.token)],
                                   path: "\(mount)/users/\(user.objectId)", request: request)
    }

    private func logIn(username: String?, password: String?, from address: String?) async throws -> Response {
        guard let username, !username.isEmpty else { throw ParseRefusal(ParseErrorCode.usernameMissing, "username/email is required.") }
        guard let password, !password.isEmpty else { throw ParseRefusal(ParseErrorCode.passwordMissing, "password is required.") }
        let (session, user) = try await gate.attempt(username: username, address: address) {
            do {
                return try await wall.logIn(username: username, password: password)
            } catch AnywallError.badCredentials, AnywallError.noPassword, AnywallError.inputRejected {
                throw ParseRefusal(ParseErrorCode.objectNotFound, "Invalid username/password.")
            }
        }
        return ParseAnswer.json(ParseRendering.user(user, sessionToken: session.token).json)
    }
}

extension JSONValue {
    /// The string, if this is one.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
