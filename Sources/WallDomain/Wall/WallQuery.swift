/// The question `nearby` asks a backend: the posts nearest a place, within a search distance,
/// and within an area when one is given.
public struct WallQuery: Equatable, Sendable {
    /// Anywall's search distance: posts farther than this are never returned.
    public static let defaultSearchDistance = Distance.kilometers(100)
    /// How many posts a query returns unless told otherwise.
    public static let defaultLimit = 20
    /// The limits `--limit` accepts.
    public static let limitRange = 1...1000

    /// Half the Earth's circumference: every place on the sphere is within it.
    public static let wholeEarth = Distance.meters(.pi * GreatCircle.earthRadius.meters)

    /// Where the posts are looked for, nearest first.
    public private(set) var center: GeoPoint
    /// How far to look, at most `wholeEarth`.
    public let searchDistance: Distance
    /// How many posts at most.
    public let limit: Int
    /// Only posts in this area (edges included) count, when set.
    public let area: Area?

    /// Builds a query, refusing a limit outside `limitRange`.
    public init(center: GeoPoint, searchDistance: Distance = defaultSearchDistance, limit: Int = defaultLimit,
                within area: Area? = nil) throws {
        self.center = center
        self.searchDistance = min(searchDistance, Self.wholeEarth)
        self.limit = try Self.checked(limit: limit)
        self.area = area
    }

    /// The same question asked around `center` (a watch that follows the reader).
    public func moved(to center: GeoPoint) -> WallQuery {
        var query = self
        query.center = center
        return query
    }

    /// Whether `location` answers the question, leaving the limit aside: within the search distance
    /// of the centre, and in the area when there is one.
    public func matches(_ location: GeoPoint) -> Bool {
        center.distance(to: location) <= searchDistance && (area?.covers(location) ?? true)
    }

    /// The area's part of a key naming this query (none without an area, so keys made before areas
    /// existed still name the same queries).
    public var areaKey: [String] {
        area.map { ["within \($0.description)"] } ?? []
    }

    /// `limit`, if it is within `limitRange`; refused with a one-line reason otherwise.
    public static func checked(limit: Int) throws -> Int {
        guard limitRange.contains(limit) else {
            throw AnywallError.inputRejected("bad limit \(limit): it must be from \(limitRange.lowerBound) to \(limitRange.upperBound)")
        }
        return limit
    }
}
