/// A line of the list below the map: a post's key, distance, bearing and, for a readable post
/// only, its text; or the count of posts left out.
public struct LegendLine: Equatable, Sendable {
    public let text: String
    /// A hidden post's line, drawn dim as its dot is.
    public let hidden: Bool
}
