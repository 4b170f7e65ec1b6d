/// One polygon of an area, described for a backend that asks its own server: its outer ring,
/// whether it is a plain longitude/latitude box, and whether holes remain to be checked.
public struct AreaPart: Equatable, Sendable {
    /// The outer ring, closed (the last corner repeats the first).
    public let shell: [AreaVertex]
    /// The smallest box holding the part.
    public let bounds: BoundingBox
    /// How many holes the part has: a server given only the shell returns posts in them too.
    public let holeCount: Int

    /// Whether the part is exactly its bounding box (no holes, four corners on two latitudes
    /// and two longitudes), so a server's box query asks the same.
    public var isBox: Bool {
        guard holeCount == 0, shell.count == 5 else { return false }
        return shell.allSatisfy { vertex in
            (vertex.latitude == bounds.minLatitude || vertex.latitude == bounds.maxLatitude)
                && (vertex.longitude == bounds.minLongitude || vertex.longitude == bounds.maxLongitude)
        } && Set(shell.dropLast()).count == 4
    }
}
