/// How long one find may read a shared wall before it is stopped, so that no query a client can
/// write (a `$regex` that is slow on every post of a million-post wall, a count over the whole
/// earth) holds one of the server's few query connections for long.
public struct QueryTimeLimit: Sendable, Equatable, CustomStringConvertible {
    /// The most time one find may take.
    public let duration: Duration

    public init(_ duration: Duration) {
        self.duration = duration
    }

    /// The server's default: above the costliest find a client means (a count of the posts in a
    /// box around the whole earth on bench-wall's million posts: docs/performance.md), below a
    /// client's patience.
    public static let serverDefault = QueryTimeLimit(.seconds(10))

    /// The limit in whole milliseconds, as PostgreSQL's `statement_timeout` takes it.
    public var milliseconds: Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    public var description: String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    /// A find stopped at the limit (Parse's 124, a request too costly to run).
    public struct Exceeded: Error, Equatable, CustomStringConvertible {
        public let limit: QueryTimeLimit

        public init(_ limit: QueryTimeLimit) {
            self.limit = limit
        }

        public var description: String {
            "the query ran past the server's limit of \(limit); narrow it (a smaller area, a simpler $regex)"
        }
    }
}
