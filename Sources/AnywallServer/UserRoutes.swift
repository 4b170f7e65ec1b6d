import AnywallSupport
import EmbeddedStore
import Hummingbird
import ParseWire
import WallDomain

/// Accounts: `POST /users` (sign up), `GET|POST /login`, `POST /logout`, `GET /users/me`.
struct UserRoutes {
    let wall: SharedWall
    let mount: String

    func register(on routes: RouterGroup<ParseContext>) {
        routes.post("users") { request, _ in try await signUp(request) }
        routes.get("login") { request, _ in
            let parameters = Dictionary(QueryParameters.of(request), uniquingKeysWith: { first, _ in first })
            return try await logIn(username: parameters["username"], password: parameters["password"])
        }
        routes.post("login") { request, _ in
            let body = try await RequestBody.object(request)
            return try await logIn(username: body["username"]?.string, password: body["password"]?.string)
        }
        routes.post("logout") { _, context in
            // Parse answers {} to a logout without a session.
            if let token = context.caller.sessionToken {
                try await wall.run { try $0.endSession(token: token) }
            }
            return ParseAnswer.json([:])
        }
        routes.get("users/me") { _, context in
            guard let token = context.caller.sessionToken else { throw ParseRefusal.invalidSessionToken }
            let user = try await wall.run { try $0.storedUser(token: token) }
            return ParseAnswer.json(ParseRendering.user(user, sessionToken: token).json)
        }
    }

    private func signUp(_ request: Request) async throws -> Response {
        let body = try await RequestBody.object(request)
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
        let (session, user) = try await wall.run { wall in
            let session: Session
            do {
                session = try wall.signUp(username: valid, password: password, name: name)
            } catch AnywallError.usernameTaken {
                throw ParseRefusal(ParseErrorCode.usernameTaken, "Account already exists for this username.")
            }
            return (session, try wall.storedUser(objectId: session.user.objectId)!)
        }
        return ParseAnswer.created(["objectId": .string(user.objectId), "createdAt": ParseRendering.date(user.createdAt),
                                    "sessionToken": .string(session.token)],
                                   path: "\(mount)/users/\(user.objectId)", request: request)
    }

    private func logIn(username: String?, password: String?) async throws -> Response {
        guard let username, !username.isEmpty else { throw ParseRefusal(ParseErrorCode.usernameMissing, "username/email is required.") }
        guard let password, !password.isEmpty else { throw ParseRefusal(ParseErrorCode.passwordMissing, "password is required.") }
        let (session, user) = try await wall.run { wall in
            let session: Session
            do {
                session = try wall.logIn(username: username, password: password)
            } catch AnywallError.badCredentials, AnywallError.noPassword, AnywallError.inputRejected {
                throw ParseRefusal(ParseErrorCode.objectNotFound, "Invalid username/password.")
            }
            return (session, try wall.storedUser(objectId: session.user.objectId)!)
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
