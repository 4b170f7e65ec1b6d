import Foundation
import WallDomain

/// A query's `where` on Posts: `location` with Parse's geo operators, and the rest of Parse's
/// query language on the other fields (`condition`). The client writes the place (`json`) and the
/// server reads it all (`init(json:)`); what it does not take is refused before any post is read.
public struct WhereClause: Equatable, Sendable {
    /// `$nearSphere`: nearest first, within `maxDistance` when given.
    public struct Near: Equatable, Sendable {
        public let center: GeoPoint
        public let maxDistance: Distance?

        public init(center: GeoPoint, maxDistance: Distance?) {
            self.center = center
            self.maxDistance = maxDistance
        }
    }

    public var near: Near?
    /// Every area a post must lie in. JSON holds one `$within` and one `$geoWithin` per field,
    /// so a clause the client writes has at most one area.
    public var areas: [WhereArea] = []
    /// What the query asks of the other fields.
    public var condition: RecordCondition = .always

    /// Whether the query asks nothing of a post's place.
    public var isPlaceless: Bool { near == nil && areas.isEmpty }

    /// Whether a post at `location` meets what the clause asks of its place: in every area, and
    /// within the near distance when there is one.
    public func admits(_ location: GeoPoint) -> Bool {
        areas.allSatisfy { $0.covers(location) } && (near?.maxDistance.map { near!.center.distance(to: location) <= $0 } ?? true)
    }

    public init(near: Near? = nil, areas: [WhereArea] = []) {
        self.near = near
        self.areas = areas
    }

    /// The clause as the client sends it; distances in kilometres (`$maxDistanceInKilometers`).
    public var json: JSONValue {
        var fields: [String: JSONValue] = [:]
        var location: [String: JSONValue] = [:]
        if let near {
            location["$nearSphere"] = ParseGeoPoint(near.center).json
            if let maxDistance = near.maxDistance { location["$maxDistanceInKilometers"] = .number(maxDistance.meters / 1000) }
        }
        for area in areas {
            let (name, argument) = area.constraint
            location[name] = argument
        }
        if !location.isEmpty { fields["location"] = .object(location) }
        return .object(fields)
    }

    /// Reads a clause as a client sent it.
    public init(json: JSONValue) throws(ParseError) {
        guard case .object(var fields) = json else { throw ParseError.invalidQuery("where must be a JSON object") }
        if let location = fields.removeValue(forKey: "location") { try readLocation(location) }
        condition = try WhereCondition.read(fields, of: .posts)
    }

    private mutating func readLocation(_ constraint: JSONValue) throws(ParseError) {
        guard case .object(let operators) = constraint else {
            throw ParseError.invalidQuery("anywall-server queries location only with $nearSphere, $within or $geoWithin")
        }
        for (name, argument) in operators {
            switch name {
            case "$nearSphere":
                near = Near(center: try Self.point(argument), maxDistance: try Self.maxDistance(operators))
            case "$maxDistance", "$maxDistanceInRadians", "$maxDistanceInKilometers", "$maxDistanceInMiles":
                guard operators["$nearSphere"] != nil else { throw ParseError.invalidQuery("\(name) needs $nearSphere") }
            case "$within":
                guard case .object(let within) = argument, case .array(let corners)? = within["$box"], corners.count == 2 else {
                    throw ParseError.invalidJSON("malformatted $within arg")
                }
                let a = try Self.vertex(corners[0]), b = try Self.vertex(corners[1])
                areas.append(.box(BoundingBox(minLatitude: min(a.latitude, b.latitude), maxLatitude: max(a.latitude, b.latitude),
                                              minLongitude: min(a.longitude, b.longitude), maxLongitude: max(a.longitude, b.longitude))))
            case "$geoWithin":
                areas.append(try Self.geoWithin(argument))
            default:
                throw ParseError.invalidQuery("anywall-server does not take \(name) on location")
            }
        }
    }

    private static func geoWithin(_ argument: JSONValue) throws(ParseError) -> WhereArea {
        guard case .object(let within) = argument, within.count == 1 else {
            throw ParseError.invalidJSON("bad $geoWithin value; only one of $polygon or $centerSphere expected.")
        }
        if let polygon = within["$polygon"] {
            let points: [JSONValue]
            switch polygon {
            case .array(let list): points = list
            case .object(let object) where object["__type"] == .string("Polygon"):
                guard case .array(let list)? = object["coordinates"] else { throw badGeoWithin("Polygon.coordinates should be an array") }
                // A Parse Polygon's coordinates are [latitude, longitude] pairs.
                points = list.map { pair in
                    guard case .array(let xy) = pair, xy.count == 2 else { return pair }
                    return .array([xy[1], xy[0]])
                }
            default: throw badGeoWithin("$polygon should be Polygon object or Array of Parse.GeoPoint's")
            }
            guard points.count >= 3 else { throw badGeoWithin("$polygon should contain at least 3 GeoPoints") }
            let corners = try points.map(vertex)
            do {
                return .polygon(try Area(polygon: corners))
            } catch {
                throw badGeoWithin((error as? AnywallError)?.reason ?? "\(error)")
            }
        }
        if case .array(let parts)? = within["$centerSphere"] {
            guard parts.count == 2, case .number(let radians) = parts[1], radians.isFinite, radians >= 0 else {
                throw badGeoWithin("$centerSphere should be an array of Parse.GeoPoint and distance")
            }
            return .circle(center: try point(parts[0]), radius: wholeEarthAtMost(radians: radians))
        }
        throw badGeoWithin("only one of $polygon or $centerSphere expected.")
    }

    private static func badGeoWithin(_ detail: String) -> ParseError {
        ParseError.invalidJSON("bad $geoWithin value; \(detail)")
    }

    /// A GeoPoint, or a `[longitude, latitude]` pair as MongoDB writes one.
    private static func point(_ json: JSONValue) throws(ParseError) -> GeoPoint {
        try ParseGeoPoint(vertex(json)).point()
    }

    private static func vertex(_ json: JSONValue) throws(ParseError) -> AreaVertex {
        guard case .array(let pair) = json else { return try ParseGeoPoint(json: json).vertex }
        guard pair.count == 2, case .number(let longitude) = pair[0], case .number(let latitude) = pair[1] else {
            throw ParseError.invalidJSON("bad GeoPoint: expected a [longitude, latitude] pair")
        }
        return try ParseGeoPoint(latitude: latitude, longitude: longitude).vertex
    }

    /// A distance of `radians` on the sphere, at most half its circumference (which holds the whole
    /// Earth): a larger one (`1e308`) would overflow to infinity in a store's SQL.
    private static func wholeEarthAtMost(radians: Double) -> Distance {
        .meters(min(radians, Double.pi) * GreatCircle.earthRadius.meters)
    }

    /// Parse's `$maxDistance*`: `$maxDistance` (radians) wins, then kilometres, miles, radians, as
    /// Parse Server reads them; kilometres and miles over Parse's radii of 6371 km and 3959 mi.
    private static func maxDistance(_ operators: [String: JSONValue]) throws(ParseError) -> Distance? {
        let units: [(String, Double)] = [("$maxDistance", 1), ("$maxDistanceInKilometers", 6371), ("$maxDistanceInMiles", 3959),
                                         ("$maxDistanceInRadians", 1)]
        for (name, radius) in units {
            guard let value = operators[name] else { continue }
            guard case .number(let number) = value, number.isFinite, number >= 0 else {
                throw ParseError.invalidJSON("\(name) must be a number of at least 0")
            }
            return wholeEarthAtMost(radians: number / radius)
        }
        return nil
    }
}
