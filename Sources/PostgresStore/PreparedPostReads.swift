import PostgresNIO
import WallDomain

/// A prepared statement that reads posts with their authors (`PostgresWall.postColumns`): each
/// connection parses and plans it once, not at every call.
protocol PreparedPostRead: PostgresPreparedStatement where Row == PostgresWall.PostRow {}

extension PreparedPostRead {
    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}

/// The post with an object id: a fetch.
struct PostByObjectId: PreparedPostRead {
    static let name = "postByObjectId"
    static let sql = "SELECT \(PostgresWall.postColumns) WHERE posts.object_id = $1"

    let objectId: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(objectId)
        return bindings
    }
}

/// The nearest search of a reader who is not signed in: posts everyone reads, not removed
/// (`PostgresWall.nearestPosts`), of `Kind`, near a center bound as its longitude and latitude,
/// within a distance in PostGIS's meters, at most a limit.
struct NearestPublicPosts<Kind: NearestPostKind>: PreparedPostRead {
    static var name: String { Kind.statementName }
    static var sql: String { Kind.sql }

    let center: GeoPoint
    /// The search distance as PostGIS measures it (`PostgresWall.postGISMeters`).
    let meters: Double
    let limit: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(center.longitude)
        bindings.append(center.latitude)
        bindings.append(meters)
        bindings.append(limit)
        return bindings
    }
}

/// The posts a `NearestPublicPosts` reads: its statement's name and text.
protocol NearestPostKind {
    static var statementName: String { get }
    static var sql: String { get }
}

extension NearestPostKind {
    /// The statement's text among the posts that meet `among` besides being readable.
    static func text(among: String) -> String {
        var statement = PostgresStatement()
        let readable = PostgresWall.nearestReadable(.user(nil), &statement)
        return PostgresWall.nearestSQL(among: "\(among) AND \(readable)", longitude: "$1", latitude: "$2", meters: "$3", limit: "$4")
    }
}

/// Thread posts alone (replies are read in their threads): the CLI's nearby.
enum ThreadPosts: NearestPostKind {
    static let statementName = "nearestPublicThreadPosts"
    static let sql = text(among: "posts.parent_id IS NULL")
}

/// Posts and replies: a stock Parse client's find near a place.
enum PostsAndReplies: NearestPostKind {
    static let statementName = "nearestPublicPosts"
    static let sql = text(among: "true")
}
