import ParseWire
import WallDomain

/// What the client asks a Parse Server for one nearby query: `$nearSphere` within the search
/// distance and, for one part of an area, `$within/$box` when the part is a plain box, else
/// `$geoWithin/$polygon` with its outer ring. (Holes and several parts cannot be said in one
/// condition: the client checks what comes back against the whole area.)
struct NearbyCondition {
    let clause: WhereClause
    /// Whether the server's answer holds only posts in the part: false when the part has holes or
    /// was sent as its bounds, so that some answers may fall outside it.
    let isExact: Bool

    /// The most corners sent as a `$polygon`: the condition travels in the URL, which servers cap
    /// (Node's headers, Parse Server's included, at 16 KiB). A longer ring is sent as its bounds.
    static let maxPolygonCorners = 100

    init(_ query: WallQuery, part: AreaPart?) throws {
        let near = WhereClause.Near(center: query.center, maxDistance: query.searchDistance)
        guard let part else {
            clause = WhereClause(near: near)
            isExact = true
            return
        }
        let sendsBounds = part.isBox || part.shell.count - 1 > Self.maxPolygonCorners
        let area: WhereArea = sendsBounds ? .box(part.bounds) : .polygon(try Area(polygon: Array(part.shell.dropLast())))
        clause = WhereClause(near: near, areas: [area])
        isExact = part.holeCount == 0 && (part.isBox || !sendsBounds)
    }

    /// The `where` sent: the clause, for threads' posts only (a reply is read in its thread).
    var whereJSON: JSONValue {
        guard case .object(var clause) = clause.json else { return clause.json }
        clause["parent"] = .object(["$exists": .bool(false)])
        return .object(clause)
    }
}

extension ParseWall {
    /// The `where` of a LiveQuery subscription to `query`'s posts: the one a REST page of the same
    /// query sends. An area of several parts cannot be one condition: the subscription then covers
    /// the search distance, and the subscriber keeps the posts in the area.
    public static func subscriptionWhere(_ query: WallQuery) throws -> JSONValue {
        let parts = query.area?.parts ?? []
        return try NearbyCondition(query, part: parts.count == 1 ? parts[0] : nil).whereJSON
    }
}
