import WallDomain

/// A GeoPoint: `{"__type":"GeoPoint","latitude":..,"longitude":..}`. Its corners may sit on the
/// poles and the antimeridian (Parse takes them in `$box` and `$polygon`); a post's location is
/// checked further by `GeoPoint`.
public struct ParseGeoPoint: Equatable, Sendable, ParseCodable {
    public let latitude: Double
    public let longitude: Double

    public init(_ point: GeoPoint) {
        latitude = point.latitude
        longitude = point.longitude
    }

    public init(_ vertex: AreaVertex) {
        latitude = vertex.latitude
        longitude = vertex.longitude
    }

    public var json: JSONValue {
        .object(["__type": .string("GeoPoint"), "latitude": .number(latitude), "longitude": .number(longitude)])
    }

    /// A corner within Parse's ranges, poles and antimeridian included.
    public init(latitude: Double, longitude: Double) throws(ParseError) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { throw Self.badShape }
        self.latitude = latitude
        self.longitude = longitude
    }

    public init(json: JSONValue) throws(ParseError) {
        guard json.isParseType("GeoPoint"), let fields = json.fields,
              let latitude = fields["latitude"]?.number, let longitude = fields["longitude"]?.number else { throw Self.badShape }
        try self.init(latitude: latitude, longitude: longitude)
    }

    private static let badShape = ParseError.invalidJSON(
        "bad GeoPoint: expected {\"__type\":\"GeoPoint\",\"latitude\":..,\"longitude\":..} within range")

    /// The corner as an area's vertex.
    public var vertex: AreaVertex { AreaVertex(latitude: latitude, longitude: longitude) }

    /// The point as a post's location: strictly inside Parse's ranges.
    public func point() throws(ParseError) -> GeoPoint {
        do {
            return try GeoPoint(latitude: latitude, longitude: longitude)
        } catch {
            throw .invalidJSON("bad GeoPoint: \((error as? AnywallError)?.reason ?? "\(error)")")
        }
    }
}
