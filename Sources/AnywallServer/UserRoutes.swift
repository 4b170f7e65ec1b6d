import Foundation
import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// Accounts: `POST /users` (sign up), `GET|POST /login`, `POST /logout`, `GET /users/me`,
/// `GET /users` (a find on the public fields), `GET /users/:id`, and `PUT|DELETE /users/:id` on
/// one's own account (any with the master key; a deleted account's posts stay, authorless). Every password check passes
/// the `PasswordGate` first. Users are public-read, as anywall signs them up. The same routes
/// answer as the `_User` class (`/classes/_User`), as Parse Server's do: the SDKs' user queries use it.
/// `authData` signs up, logs in, links and unlinks (`AuthDataAccounts`); an account's authData
/// reaches only that account and the master key, never another user.
struct UserRoutes {
    let wall: any WallStore
    let mount: String
    let gate: PasswordGate
    /// The fewest characters a new password may have.
    let minimumPasswordLength: Int
    let authProviders: AuthProviders

    private var authData: AuthDataAccounts { AuthDataAccounts(wall: wall, providers: authProviders) }

    func register(on routes: RouterGroup<ParseContext>) {
        for users in ["users", "classes/_User"] {
            registerAccounts(at: users, on: routes)
        }
        routes.get("login") { request, context in
            let parameters = Dictionary(QueryParameters.of(request), uniquingKeysWith: { first, _ in first })
            return try await logIn(username: parameters["username"], password: parameters["password"], from: context.remoteAddress)
        }
        routes.post("login") { request, context in
            let body = try await RequestBody.object(request, context)
            let username = body["username"], email = body["email"], password = body["password"]
            // As Parse Server checks them: missing (false to JavaScript) first, then of another type
            // than a string; an account by email is one this server does not keep.
            guard username?.isTruthy == true || email?.isTruthy == true else { throw Self.usernameMissing }
            guard password?.isTruthy == true else { throw Self.passwordMissing }
            guard let name = username?.string, let secret = password?.string else { throw Self.invalidLogin }
            return try await logIn(username: name, password: secret, from: context.remoteAddress)
        }
        routes.post("logout") { _, context in
            // Parse answers {} to a logout without a session.
            if let token = context.caller.sessionToken {
                try await wall.endSession(token: token)
            }
            return ParseAnswer.json([:])
        }
        routes.get("users/me") { _, context in
            guard let token = context.caller.sessionToken, let user = context.caller.user else { throw ParseRefusal.invalidSessionToken }
            return ParseAnswer.json(try await AuthDataAccounts.ownView(of: user, sessionToken: token, on: wall))
        }
    }

    /// Sign-up, the find, and one account's fetch, edit and deletion, under `path`.
    private func registerAccounts(at path: String, on routes: RouterGroup<ParseContext>) {
        routes.post(RouterPath(path)) { request, context in try await signUp(request, context) }
        routes.get(RouterPath(path)) { request, context in
            let query = try UserQuery(parameters: QueryParameters.of(request))
            let (users, count) = try await ParseRefusal.refusingQuery {
                try await wall.users(where: query.condition, skip: query.skip, limit: query.limit, session: context.caller.sessionToken)
            }
            try context.answerBudget.take(users.reduce(0) { $0 + 128 + $1.username.utf8.count + ($1.name?.utf8.count ?? 0) })
            var answer: [String: JSONValue] = ["results": .array(users.map { ParseRendering.user($0).json })]
            if query.count { answer["count"] = .number(Double(count)) }
            return ParseAnswer.json(answer)
        }
        routes.get(RouterPath("\(path)/:objectId")) { request, context in
            let objectId = try context.parameters.require("objectId")
            _ = try QueryParameters.ofFetch(request)
            let (users, _) = try await wall.users(where: .compare(.objectId, .equal, .string(objectId)), skip: 0, limit: 1,
                                                  session: context.caller.sessionToken)
            guard let user = users.first else { throw ParseRefusal.objectNotFound }
            let own = user.objectId == context.caller.user?.objectId
            guard own || context.caller.isMaster else { return ParseAnswer.json(ParseRendering.user(user).json) }
            return ParseAnswer.json(try await AuthDataAccounts.ownView(of: user, sessionToken: own ? context.caller.sessionToken : nil, on: wall))
        }
        routes.put(RouterPath("\(path)/:objectId")) { request, context in
            let objectId = try context.parameters.require("objectId")
            guard context.caller.isMaster || context.caller.user?.objectId == objectId else {
                throw ParseRefusal(ParseErrorCode.sessionMissing, "Cannot modify user \(objectId).")
            }
            let body = try await RequestBody.object(request, context)
            if let other = body.keys.sorted().first(where: { !["username", "password", "name", "ACL", "updatedAt", "createdAt", "objectId", "authData"].contains($0) }) {
                throw ParseRefusal(ParseErrorCode.invalidKeyName, "anywall-server keeps only username, password and name for a user, not \(other)")
            }
            func text(_ key: String) throws -> String? {
                guard let value = body[key] else { return nil }
                guard let string = value.string, !string.isEmpty else {
                    throw ParseRefusal(key == "password" ? ParseErrorCode.passwordMissing : ParseErrorCode.usernameMissing,
                                       key == "password" ? "password is required." : "bad or missing username")
                }
                return string
            }
            let password = try text("password")
            if let password { try checkPolicy(password) }
            var name: String??
            switch body["name"] {
            case nil: name = nil
            case .null?, .object(["__op": .string("Delete")])?: name = .some(nil)
            case .string(let given)?: name = .some(given)
            default: throw ParseRefusal(ParseErrorCode.incorrectType, "schema mismatch for _User.name; expected String but got \(body["name"].flatMap(FieldType.init(of:))?.rawValue ?? "another type")")
            }
            let identities = try AuthDataBody(body)
            // Every check (the providers', an identity another account has) before any write.
            var linking: [AuthIdentity] = []
            if let identities { linking = try await authData.verified(identities, forUser: objectId) }
            var unlinking = identities?.unlinking ?? []
            // An anonymous account given a password is converted: its anonymous id no longer logs
            // in to it (the SDKs send `authData.anonymous: null` for this; a client that does not
            // must not leave a second way in). Its objectId, and so its posts, stay.
            if password != nil, !linking.contains(where: { $0.provider == "anonymous" }) { unlinking.insert("anonymous") }
            do {
                // A new password first, so unlinking with it is never refused as the last way in;
                // without one, the identities first, so a refused unlink changes nothing.
                if password == nil, identities != nil {
                    try await wall.changeIdentities(ofUser: objectId, linking: linking, unlinking: unlinking)
                }
                try await wall.updateAccount(objectId: objectId, username: try text("username"), password: password, name: name,
                                             keepingSession: context.caller.sessionToken)
                if password != nil {
                    try await wall.changeIdentities(ofUser: objectId, linking: linking, unlinking: unlinking)
                }
            } catch AnywallError.usernameTaken {
                throw ParseRefusal(ParseErrorCode.usernameTaken, "Account already exists for this username.")
            }
            return ParseAnswer.json(["updatedAt": ParseRendering.date(Date())])
        }
        routes.delete(RouterPath("\(path)/:objectId")) { _, context in
            let objectId = try context.parameters.require("objectId")
            // As Parse Server: no session at all is 206; another's account is not found, as Parse
            // answers a delete its ACL forbids.
            guard context.caller.isMaster || context.caller.user != nil else {
                throw ParseRefusal(ParseErrorCode.sessionMissing, "Insufficient auth to delete user")
            }
            guard context.caller.isMaster || context.caller.user?.objectId == objectId else { throw ParseRefusal.objectNotFound }
            try await wall.deleteAccount(objectId: objectId)
            return ParseAnswer.json([:])
        }
    }

    private func signUp(_ request: Request, _ context: ParseContext) async throws -> Response {
        let body = try await RequestBody.object(request, context)
        if let extra = body.keys.first(where: { !["username", "password", "name", "ACL", "authData"].contains($0) }) {
            throw ParseRefusal(ParseErrorCode.invalidKeyName, "anywall-server keeps only username, password and name for a user, not \(extra)")
        }
        if let identities = try AuthDataBody(body) {
            return try await signUp(with: identities, body, request)
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
        try checkPolicy(password)
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

    /// `POST /users` with authData: its username, password and name are optional, checked as a
    /// sign-up's when given.
    private func signUp(with identities: AuthDataBody, _ body: [String: JSONValue], _ request: Request) async throws -> Response {
        func optionalText(_ key: String, code: Int, _ message: String) throws -> String? {
            guard let value = body[key], value != .null else { return nil }
            guard let text = value.string, !text.isEmpty else { throw ParseRefusal(code, message) }
            return text
        }
        let username = try optionalText("username", code: ParseErrorCode.usernameMissing, "bad or missing username")
        let password = try optionalText("password", code: ParseErrorCode.passwordMissing, "password is required")
        if let username, (try? Username.validated(username)) == nil {
            throw ParseRefusal(ParseErrorCode.validationFailed, "bad username: at most \(Username.maxLength) characters, no control characters")
        }
        if let password { try checkPolicy(password) }
        do {
            return try await authData.signUpOrLogIn(identities, username: username, password: password, name: body["name"]?.string,
                                                    mount: mount, request: request)
        } catch AnywallError.usernameTaken {
            throw ParseRefusal(ParseErrorCode.usernameTaken, "Account already exists for this username.")
        }
    }

    /// Refuses a new password shorter than the server's minimum, as Parse Server's password policy refuses one.
    private func checkPolicy(_ password: String) throws {
        guard password.count >= minimumPasswordLength else {
            throw ParseRefusal(ParseErrorCode.validationFailed,
                               "Password does not meet the Password Policy requirements: at least \(minimumPasswordLength) characters.")
        }
    }

    private static let usernameMissing = ParseRefusal(ParseErrorCode.usernameMissing, "username/email is required.")
    private static let passwordMissing = ParseRefusal(ParseErrorCode.passwordMissing, "password is required.")
    private static let invalidLogin = ParseRefusal(ParseErrorCode.objectNotFound, "Invalid username/password.")

    private func logIn(username: String?, password: String?, from address: String?) async throws -> Response {
        guard let username, !username.isEmpty else { throw Self.usernameMissing }
        guard let password, !password.isEmpty else { throw Self.passwordMissing }
        // No account has a name the wall would not take: refused before the gate, which would
        // otherwise remember a name of any length a client makes up.
        guard (try? Username.validated(username)) != nil else { throw Self.invalidLogin }
        let (session, user) = try await gate.attempt(username: username, address: address) {
            do {
                return try await wall.logIn(username: username, password: password)
            } catch AnywallError.badCredentials, AnywallError.noPassword, AnywallError.inputRejected {
                throw Self.invalidLogin
            }
        }
        return ParseAnswer.json(try await AuthDataAccounts.ownView(of: user, sessionToken: session.token, on: wall))
    }
}
