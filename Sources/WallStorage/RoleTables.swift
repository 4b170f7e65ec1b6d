/// The tables of Parse's roles and their users as a store names them (`RecordColumns`), so that
/// `RecordConditionSQL` writes the conditions on roles once for every store.
struct RoleTables {
    let columns: RecordColumns

    /// The roles' rows joined to their users'.
    var membership: String {
        "\(columns.roleMembers) JOIN \(columns.roles) ON \(columns.roles).id = \(columns.roleMembers).\(columns.memberRole)"
    }

    /// A member's user row id, in `membership`.
    var memberUser: String { "\(columns.roleMembers).\(columns.author)" }

    /// A role's name and objectId, in `membership`.
    var roleName: String { "\(columns.roles).name" }
    var roleObjectId: String { "\(columns.roles).\(columns.objectId)" }

    /// The row id of the user whose objectId is at `placeholder`.
    func userRow(_ placeholder: String) -> String {
        "(SELECT id FROM \(columns.users) AS holder WHERE holder.\(columns.objectId) = \(placeholder))"
    }
}
