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
}
