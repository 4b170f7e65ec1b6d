/// The eight points of the compass, clockwise from north.
public enum CompassPoint: String, CaseIterable, Sendable {
    case north = "N", northEast = "NE", east = "E", southEast = "SE", south = "S", southWest = "SW", west = "W", northWest = "NW"

    /// The point nearest to a bearing in degrees clockwise from north.
    public init(bearing: Double) {
        let sector = Int((bearing / 45).rounded()) % 8
        self = Self.allCases[(sector + 8) % 8]
    }
}
