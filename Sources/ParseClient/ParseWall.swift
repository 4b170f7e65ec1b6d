import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The wall kept by a Parse Server, through its REST API: the same `Posts` class and keys as the
/// Anywall iOS and Android apps, so the CLI and the apps see one wall.
public final class ParseWall: WallBackend {
    public let server: ParseServer
    public var identity: String { server.url }
    public var description: String { "the Parse Server at \(server.url)" }
    public var isRemote: Bool { true }
    let client: ParseClient

    /// Opens a client for `server` (loading libcurl); nothing is sent yet.
    public init(server: ParseServer, timeouts: HTTPTimeouts = .standard) throws {
        self.server = server
        client = try ParseClient(server: server, timeouts: timeouts)
    }

    // MARK: Accounts

    public func signUp(username: String, password: String, name: String?) throws -> Session {
        let username = try Username.validated(username)
        let password = try Password.validated(password)
        let name = name.flatMap { $0.isEmpty ? nil : $0 }
        let created = try call {
            try client.send(.post, "users", body: ParseNewUser(username: username, password: password, name: name),
                            revocableSession: true, sendsPassword: true, as: ParseCreated.self)
        } refused: { code, message in
            code == ParseErrorCode.usernameTaken ? .usernameTaken(username) : nil
        }
        guard let token = created.sessionToken else {
            throw AnywallError.noSessionGiven(wall: client.serverName)
        }
        return Session(backend: identity, token: token, user: User(objectId: created.objectId, username: username, name: name))
    }

    public func logIn(username: String, password: String) throws -> Session {
        let username = try Username.validated(username)
        let record = try call {
            try client.send(.post, "login", body: ParseLogin(username: username, password: password),
                            revocableSession: true, sendsPassword: true, as: ParseUserObject.self)
        } refused: { code, _ in
            code == ParseErrorCode.objectNotFound ? .badCredentials : nil
        }
        guard let token = record.sessionToken else {
            throw AnywallError.noSessionGiven(wall: client.serverName)
        }
        return Session(backend: identity, token: token, user: user(record, fallbackUsername: username))
    }

    public func logOut(_ session: Session) throws {
        do {
            _ = try call { try client.send(.post, "logout", body: [String: String](), sessionToken: session.token, as: ParseIgnored.self) }
        } catch AnywallError.sessionExpired {
            // Already ended on the server: logging out is done.
        }
    }

    public func currentUser(_ session: Session) throws -> User {
        let record = try call { try client.send(.get, "users/me", sessionToken: session.token, as: ParseUserObject.self) }
        return user(record, fallbackUsername: session.user.username)
    }

    // MARK: Posts

    public func createPost(text: String, at location: GeoPoint, session: Session, requestId: String) throws -> Post {
        let created: ParseCreated
        do {
            created = try client.send(.post, "classes/Posts",
                                      body: ParseNewPost(text: text, location: location, userId: session.user.objectId),
                                      sessionToken: session.token, requestId: requestId, as: ParseCreated.self)
        } catch .refused(code: .some(ParseErrorCode.duplicateRequest), message: _, status: _) {
            // Parse Server's idempotency: a request id it has seen was acted on already.
            throw AnywallError.duplicateRequest(requestId: requestId)
        } catch {
            throw translate(error) { code, message in
                code == ParseErrorCode.validationFailed ? .postRefused(wall: self.client.serverName, reason: message) : nil
            }
        }
        return Post(objectId: created.objectId, text: text, location: location, author: session.user.displayName,
                    createdAt: ParseDate.date(from: created.createdAt) ?? Date())
    }

    public func nearby(_ query: WallQuery) throws -> [Post] {
        try nearbyPosts(query, session: nil)
    }

    /// The posts of `query` (not replies), nearest first, as `session`'s user (nil: anyone) sees
    /// them: a post the community removed shows to its author alone.
    func nearbyPosts(_ query: WallQuery, session: Session?) throws -> [Post] {
        let found: [ParsePostObject]
        if let area = query.area {
            // One query per part (MongoDB takes one geo condition per field); duplicates are posts
            // on an edge two parts share.
            var seen = Set<String>()
            found = try area.parts.flatMap { try nearby(query, in: $0, of: area, session: session) }.filter { seen.insert($0.objectId).inserted }
        } else {
            found = try page(query, where: NearbyCondition(query, part: nil), skip: 0, session: session)
        }
        // Parse Server measures on the same 6371 km sphere; the checks (distance, and GEOS for the
        // area) and the embedded wall's order make the answer exactly the embedded wall's, whatever
        // the server's rounding at the edges and its order of posts at the same distance.
        let candidates = found.compactMap { record -> SocialPost? in
            guard let candidate = SocialPost(record: record), query.center.distance(to: candidate.location) <= query.searchDistance,
                  query.area?.covers(candidate.location) ?? true else { return nil }
            return candidate
        }
        // The config is read only when a post's counters may have removed it.
        let rules = candidates.contains(where: \.needsRules) ? CommunityRules(config: try fetchConfig()) : nil
        let posts = candidates.compactMap { $0.shown(to: session?.user.objectId, under: rules) }
        return Array(posts.sorted(by: NearestFirst(around: query.center).precedes).prefix(query.limit))
    }

    /// The deepest `skip` read for a part the server cannot test exactly: anywall-server's bound
    /// (Parse Server has none).
    static let maxSkip = 10_000

    /// The posts nearest first in one part of the area. When the server sees less than the part (its
    /// outer ring without the holes, or its bounds), it reads on, page after page, until `limit`
    /// of the posts are in the area.
    private func nearby(_ query: WallQuery, in part: AreaPart, of area: Area, session: Session?) throws -> [ParsePostObject] {
        let condition = try NearbyCondition(query, part: part)
        var found: [ParsePostObject] = []
        var skip = 0
        while true {
            let page = try self.page(query, where: condition, skip: skip, session: session)
            found += page
            guard !condition.isExact, page.count == query.limit, skip + query.limit <= Self.maxSkip,
                  found.count(where: { post in post.location.flatMap { try? $0.point() }.map(area.covers) ?? false }) < query.limit else { return found }
            skip += query.limit
        }
    }

    /// One page of a nearby query's answer, read as `session`'s user.
    private func page(_ query: WallQuery, where condition: NearbyCondition, skip: Int, session: Session?) throws -> [ParsePostObject] {
        let whereJSON = String(decoding: try JSONEncoder().encode(condition.whereJSON), as: UTF8.self)
        var parameters = [("where", whereJSON), ("include", "user"), ("limit", "\(query.limit)")]
        if skip > 0 { parameters.append(("skip", "\(skip)")) }
        return try call {
            try client.send(.get, "classes/Posts", query: parameters, sessionToken: session?.token, as: ParseResults<ParsePostObject>.self)
        }.results
    }

    // MARK: Config

    /// The server's config, Anywall's defaults for what it has not set (a new server has nothing set).
    public func fetchConfig() throws -> RemoteConfig {
        RemoteConfig(setOnWall: try fetchParams())
    }

    private func fetchParams() throws -> [String: JSONValue] {
        try call { try client.send(.get, "config", as: ParseConfigAnswer.self) }.params
    }

    public func setConfig(_ key: String, to value: JSONValue, masterKey: String?) throws -> RemoteConfig {
        try RemoteConfig.validate(key: key, value: value)
        try putConfig([key: value], masterKey: try required(masterKey))
        return try fetchConfig()
    }

    public func unsetConfig(_ key: String, masterKey: String?) throws -> RemoteConfig {
        // Parse Server's way to remove a parameter: the Delete operation in its place.
        try putConfig([key: .object(["__op": .string("Delete")])], masterKey: try required(masterKey))
        return try fetchConfig()
    }

    public func initialize(masterKey: String?) throws -> RemoteConfig {
        let masterKey = try required(masterKey)
        do {
            _ = try client.send(.post, "schemas/Posts", body: ParsePostsSchema(), masterKey: masterKey, as: ParseIgnored.self)
        } catch .refused(code: .some(ParseErrorCode.invalidClassName), message: _, status: _) {
            // The class exists already: keep it as it is.
        } catch {
            throw translate(error, withMasterKey: true)
        }
        let current = try fetchParams()
        let missing = RemoteConfig.defaults.params.filter { current[$0.key] == nil }
        guard !missing.isEmpty else { return RemoteConfig(params: current) }
        try putConfig(missing, masterKey: masterKey)
        return try fetchConfig()
    }

    private func putConfig(_ params: [String: JSONValue], masterKey: String) throws {
        _ = try call(withMasterKey: true) {
            try client.send(.put, "config", body: ParseConfigAnswer(params: params), masterKey: masterKey, as: ParseIgnored.self)
        }
    }

    func required(_ masterKey: String?) throws -> String {
        guard let masterKey, !masterKey.isEmpty else {
            throw AnywallError.masterKeyMissing(wall: client.serverName)
        }
        return masterKey
    }

    // MARK: Helpers

    private func user(_ record: ParseUserObject, fallbackUsername: String) -> User {
        User(objectId: record.objectId, username: record.username ?? fallbackUsername, name: record.name.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Runs a request, turning its failure into anywall's typed errors; `refused` names the meaning
    /// of the error codes particular to the call (nil: the general meaning).
    func call<T>(withMasterKey: Bool = false, _ body: () throws -> T,
                         refused special: (Int?, String) -> AnywallError? = { _, _ in nil }) throws -> T {
        do {
            return try body()
        } catch let failure as ParseFailure {
            throw translate(failure, withMasterKey: withMasterKey, refused: special)
        }
    }

    func translate(_ failure: ParseFailure, withMasterKey: Bool = false,
                           refused special: (Int?, String) -> AnywallError? = { _, _ in nil }) -> AnywallError {
        switch failure {
        case .unavailable(let message, _):
            return .backendUnreachable(message)
        case .malformed(let message):
            return .protocolError(message)
        case .cleartext(let message):
            return .inputRejected(message)
        case .refused(let code, let message, let status):
            return special(code, message)
                ?? ParseRefusalMeaning(code: code, message: message, status: status, withMasterKey: withMasterKey).error(wall: client.serverName)
        }
    }
}
