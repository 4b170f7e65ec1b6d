import WallDomain

/// Posts beyond the view, drawn as an arrow on its edge where the line from you towards them
/// leaves it, with their count and the nearest one's distance.
public struct EdgeArrow: Equatable, Sendable {
    public let cell: CellPosition
    public let direction: CompassPoint
    /// The posts it stands for, as indexes into the scene's posts.
    public let posts: [Int]
    public let nearest: Distance
}
