/// An account on a wall.
public struct User: Equatable, Sendable, Codable {
    public let objectId: String
    public let username: String
    /// The display name, shown as the author when set.
    public let name: String?
    /// The ways into the account the wall has told of. A session file written before there were
    /// others reads as `[.password]`.
    public let logins: Set<LoginMethod>

    public init(objectId: String, username: String, name: String?, logins: Set<LoginMethod> = [.password]) {
        self.objectId = objectId
        self.username = username
        self.name = name
        self.logins = logins
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(objectId: try container.decode(String.self, forKey: .objectId),
                  username: try container.decode(String.self, forKey: .username),
                  name: try container.decodeIfPresent(String.self, forKey: .name),
                  logins: try container.decodeIfPresent(Set<LoginMethod>.self, forKey: .logins) ?? [.password])
    }

    private enum CodingKeys: String, CodingKey { case objectId, username, name, logins }

    /// How posts show this user: the name, else the username.
    public var displayName: String { name ?? username }

    /// Whether the account has no way in but its session: Parse's anonymous user. Logging out
    /// loses it for good.
    public var isAnonymous: Bool { logins == [.anonymous] }

    /// The same account, known by other login methods, name or username.
    public func with(username: String? = nil, name: String?? = nil, logins: Set<LoginMethod>? = nil) -> User {
        User(objectId: objectId, username: username ?? self.username, name: name ?? self.name, logins: logins ?? self.logins)
    }
}
