import WallDomain

/// A `where` on Posts tested on one post in memory, as a LiveQuery subscription tests each change:
/// the answer a REST find with the same clause, for the same reader, gives about that post. The
/// place through `WhereClause.admits` (a `$nearSphere` without a distance admits every place, and
/// `$maxDistanceIn*` are read into its distance), the rest through `RecordMatch`.
public struct WhereMatch: Sendable {
    public let clause: WhereClause
    private let match: RecordMatch

    /// The match of `clause` for `reader`; refused (102) when the clause asks what only the store
    /// can tell (`$relatedTo`, who holds a role), rather than matching nothing without a word.
    public init(_ clause: WhereClause, reader: PostReader, patterns: any TextPatternMatcher) throws(ParseError) {
        guard let match = RecordMatch(clause.condition.and(reader.condition), patterns: patterns) else {
            throw .invalidQuery("anywall-server cannot match $relatedTo (who holds a role) live: subscribe without it")
        }
        self.clause = clause
        self.match = match
    }

    /// Whether `post` is among the clause's posts, its added fields read by `schema`, for a reader
    /// who holds the roles named `readerRoles`.
    public func admits(_ post: StoredPost, schema: [String: FieldType], readerRoles: Set<String> = []) -> Bool {
        clause.admits(post.location) && match.admits(post, schema: schema, readerRoles: readerRoles)
    }
}
