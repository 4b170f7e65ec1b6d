import WallDomain

/// What a scan over an area reads of each post to test it and keep its place in a page: its row
/// in the store, its objectId (ties in distance go by it) and its place.
public struct PlacedPost: Hashable, Sendable, NearestFirst.Placed {
    /// The store's own number for the post, to read it whole afterwards.
    public let rowId: Int64
    public let objectId: String
    public let location: GeoPoint

    public init(rowId: Int64, objectId: String, location: GeoPoint) {
        self.rowId = rowId
        self.objectId = objectId
        self.location = location
    }
}
