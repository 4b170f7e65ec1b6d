/// Why a post is hidden from everyone but its author and the moderators.
public enum PostRemoval: String, CaseIterable, Sendable, Codable {
    /// Its score fell to the config's `hideScore`.
    case votes
    /// `reportLimit` accounts reported it.
    case reports
    /// A moderator removed it.
    case moderator
}
