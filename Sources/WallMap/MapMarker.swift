/// Posts drawn in one cell of the map: a readable post's key, or a hidden post's dot, with a
/// count when several share the cell.
public struct MapMarker: Equatable, Sendable {
    public let cell: CellPosition
    /// The posts it stands for, as indexes into the scene's posts.
    public let posts: [Int]
}
