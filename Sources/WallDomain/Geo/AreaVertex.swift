/// A corner of an area, in degrees. Unlike a `GeoPoint` it may lie on a pole or on the
/// antimeridian (a box up to 180° is drawn there).
public struct AreaVertex: Hashable, Sendable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
