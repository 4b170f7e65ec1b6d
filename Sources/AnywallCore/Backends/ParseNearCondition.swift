/// The `where` condition on `location` of a nearby query sent to a Parse Server: `$nearSphere`
/// within the search distance and, for one part of an area, `$within/$box` when the part is a
/// plain box, else `$geoWithin/$polygon` with its outer ring. (Holes and several parts cannot be
/// said in one condition: the client checks what comes back against the whole area.)
struct ParseNearCondition: Encodable {
    let center: ParseGeoPoint
    let maxDistanceInKilometers: Double
    let part: AreaPart?

    /// The most corners sent as a `$polygon`: the condition travels in the URL, which servers cap
    /// (Node's headers, Parse Server's included, at 16 KiB). A longer ring is sent as its bounds.
    static let maxPolygonCorners = 100

    init(_ query: WallQuery, part: AreaPart?) {
        center = ParseGeoPoint(query.center)
        maxDistanceInKilometers = query.searchDistance.meters / 1000
        self.part = part
    }

    /// Whether the server's answer holds only posts in the part: false when the part has holes or
    /// was sent as its bounds, so that some answers may fall outside it.
    var isExact: Bool {
        guard let part else { return true }
        return part.holeCount == 0 && (part.isBox || !sendsBounds)
    }

    private var sendsBounds: Bool {
        guard let part else { return false }
        return part.isBox || part.shell.count - 1 > Self.maxPolygonCorners
    }

    private enum CodingKeys: String, CodingKey {
        case center = "$nearSphere", maxDistanceInKilometers = "$maxDistanceInKilometers", within = "$within", geoWithin = "$geoWithin"
    }

    private enum AreaKeys: String, CodingKey {
        case box = "$box", polygon = "$polygon"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(center, forKey: .center)
        try container.encode(maxDistanceInKilometers, forKey: .maxDistanceInKilometers)
        guard let part else { return }
        if sendsBounds {
            // Parse's box: south-west corner, then north-east.
            let bounds = part.bounds
            var within = container.nestedContainer(keyedBy: AreaKeys.self, forKey: .within)
            try within.encode([ParseGeoPoint(AreaVertex(latitude: bounds.minLatitude, longitude: bounds.minLongitude)),
                               ParseGeoPoint(AreaVertex(latitude: bounds.maxLatitude, longitude: bounds.maxLongitude))], forKey: .box)
        } else {
            var within = container.nestedContainer(keyedBy: AreaKeys.self, forKey: .geoWithin)
            try within.encode(part.shell.dropLast().map(ParseGeoPoint.init), forKey: .polygon)
        }
    }
}
