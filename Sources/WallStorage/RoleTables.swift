/// How a store names the tables of Parse's roles and their users, so that `RecordConditionSQL`
/// writes the conditions on roles once for every store.
public struct RoleTables: Sendable {
    /// The roles (`id`, an objectId column, a name column).
    public let roles: String
    public let roleObjectId: String
    public let roleName: String
    /// The users of each role: a role's row id and a user's.
    public let members: String
    public let memberRole: String
    public let memberUser: String
    /// The users (`id`, an objectId column).
    public let users: String
    public let userObjectId: String

    public init(roles: String, roleObjectId: String, roleName: String, members: String, memberRole: String, memberUser: String,
                users: String, userObjectId: String) {
        self.roles = roles
        self.roleObjectId = roleObjectId
        self.roleName = roleName
        self.members = members
        self.memberRole = memberRole
        self.memberUser = memberUser
        self.users = users
        self.userObjectId = userObjectId
    }

    /// The roles' rows joined to their users'.
    var membership: String {
        "\(members) JOIN \(roles) ON \(roles).id = \(members).\(memberRole)"
    }

    /// The row id of the user whose objectId is at `placeholder`.
    func userRow(_ placeholder: String) -> String {
        "(SELECT id FROM \(users) AS holder WHERE holder.\(userObjectId) = \(placeholder))"
    }
}
