import WallDomain

/// A post or reply as the social layer of both stores reads it before a reply, vote, report,
/// deletion or moderator's action: its row, its thread, its author, its counters, its removal and
/// its readers; and whether a reader sees it at all, decided here so that both stores refuse the
/// same posts.
public struct SocialState: Sendable {
    public let id: Int64
    /// The row id and objectId of its thread's post, when it is a reply.
    public let parentId: Int64?
    public let parent: String?
    public let authorId: String?
    public let score: Int
    public let reportCount: Int
    public let removed: PostRemoval?
    /// Whether a moderator restored it: the community's removal no longer applies.
    public let restored: Bool
    /// Its readers as stored (`PostAccess.storedReaders`): nil for everyone.
    public let readers: String?
    /// Where its thread's post is: what decides whether its text shows, and who may reply.
    public let threadLocation: GeoPoint

    public init(id: Int64, parentId: Int64?, parent: String?, authorId: String?, score: Int, reportCount: Int, removed: PostRemoval?,
                restored: Bool, readers: String?, threadLocation: GeoPoint) {
        self.id = id
        self.parentId = parentId
        self.parent = parent
        self.authorId = authorId
        self.score = score
        self.reportCount = reportCount
        self.removed = removed
        self.restored = restored
        self.readers = readers
        self.threadLocation = threadLocation
    }

    /// Whether `reader` (a user's objectId, nil for nobody signed in) sees it: it is theirs, or
    /// its readers let them and it is not removed (a moderator sees it removed too).
    public func isSeen(by reader: String?, moderator: Bool) -> Bool {
        guard let reader else { return readers == nil && removed == nil }
        let readable = readers.map { $0.contains(" \(reader) ") } ?? true
        return authorId == reader || (readable && (removed == nil || moderator))
    }
}
