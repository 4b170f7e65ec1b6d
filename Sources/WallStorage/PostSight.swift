import WallDomain

/// Whether a reader sees a post at all, as the social layer of both stores decides before a
/// reply, vote, report or deletion: from its readers column (`PostAccess.storedReaders`), its
/// author and its removal, so that both stores refuse the same posts.
public enum PostSight {
    /// Whether `reader` (a user's objectId, nil for nobody signed in) sees the post: it is theirs,
    /// or `storedReaders` lets them and it is not removed (a moderator sees it removed too).
    public static func isSeen(storedReaders: String?, author: String?, removed: PostRemoval?, by reader: String?, moderator: Bool) -> Bool {
        guard let reader else { return storedReaders == nil && removed == nil }
        let readable = storedReaders.map { $0.contains(" \(reader) ") } ?? true
        return author == reader || (readable && (removed == nil || moderator))
    }
}
