/// The name of a Parse role (`moderators`): what an ACL names it by (`role:NAME`).
public enum RoleName {
    /// The role whose users moderate the wall.
    public static let moderators = "moderators"

    /// `name` if it is a role's name here: letters, digits, `_` and `-`, at most 128 characters.
    /// Parse's SDKs take spaces too; here a post's readers are kept as a list between spaces,
    /// where a role's name with a space would read as two readers, one of them perhaps a user's
    /// objectId.
    public static func validated(_ name: String) throws(AnywallError) -> String {
        guard !name.isEmpty, name.utf8.count <= 128,
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-".unicodeScalars.contains($0)) })
        else { throw .inputRejected("A role's name can only contain alphanumeric characters, _ and - here (no spaces).") }
        return name
    }
}
