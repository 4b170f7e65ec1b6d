/// A node of SQLite's 2-D R*Tree as rtree.c lays it out, which `PointIndexBuild` writes and
/// `PointIndexScan` reads: a 2-byte depth (the root's; 0 where the root is a leaf), a 2-byte cell
/// count, then cells of an 8-byte id (a post's, or a child node's number) and four 4-byte floats
/// (minimum and maximum latitude, minimum and maximum longitude), all big-endian.
enum PointIndexNode {
    static let headerSize = 4
    static let cellSize = 24
    /// The most cells the module puts in a node (`RTREE_MAXCELLS`).
    static let maximumCells = 51
}
