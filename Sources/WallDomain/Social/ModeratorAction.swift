/// What a moderator does to a post.
public enum ModeratorAction: String, Sendable {
    /// Puts a removed post back up for good: the community's votes and reports no longer remove it.
    case restore
    /// Removes a post for everyone but its author, whatever its score and reports.
    case remove
}
