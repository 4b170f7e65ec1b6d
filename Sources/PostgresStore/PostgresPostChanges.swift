import Foundation
import PostgresNIO
import WallDomain

// The change log (migration v6) as LiveQuery reads it: each write to a post, in commit order,
// with the post before and after it. Always on the primary: a replica's log may lag behind.
extension PostgresWall {
    /// The changes after `seq`, at most `limit`, read in one snapshot of the wall.
    public func postChanges(after seq: Int64, limit: Int) async throws -> PostChangePage {
        try await call("reading the change log", reading: true) {
            try await self.client.withTransaction(logger: self.logger) { connection in
                _ = try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: self.logger)
                return try await self.postChanges(connection, after: seq, limit: limit)
            }
        }
    }

    private func postChanges(_ connection: PostgresConnection, after seq: Int64, limit: Int) async throws -> PostChangePage {
        let horizon = try await collect(connection.query("""
            SELECT pruned_through, greatest(pruned_through, (SELECT coalesce(max(seq), 0) FROM post_changes)) FROM change_horizon
            """, logger: logger).decode((Int64, Int64).self))
        let (prunedThrough, latest) = horizon.first ?? (0, 0)
        let all = try await collect(connection.query("""
            SELECT seq, change, object_id, class_name = 'Activity' FROM post_changes WHERE seq > \(seq) ORDER BY seq LIMIT \(limit)
            """, logger: logger).decode((Int64, String, String, Bool).self)).compactMap { seq, change, objectId, isActivity in
            PostChange.Kind(rawValue: change).map { PostChange.Entry(seq: seq, kind: $0, objectId: objectId, isActivity: isActivity) }
        }
        let entries = all.filter { !$0.isActivity }
        guard let last = all.last?.seq, !entries.isEmpty else {
            return PostChangePage(entries: all, changes: [], latest: latest, prunedThrough: prunedThrough)
        }
        let changed = "SELECT \(Self.postColumnList) FROM post_changes AS posts LEFT JOIN users ON users.id = posts.user_id"
        // In seq order, as the entries of the same snapshot: the n-th row is the n-th update or delete's.
        let beforeRows = try await collect(connection.query("""
            \(unescaped: changed) WHERE posts.seq > \(seq) AND posts.seq <= \(last) AND posts.change <> 'create' AND posts.class_name = 'Posts'
            ORDER BY posts.seq
            """, logger: logger).decode(PostRow.self))
        let changedSeqs = entries.filter { $0.kind != .create }.map(\.seq)
        var befores: [Int64: StoredPost] = [:]
        for (changeSeq, row) in zip(changedSeqs, beforeRows) { befores[changeSeq] = try Self.storedPost(row) }
        var lastKind: [String: PostChange.Kind] = [:]
        for entry in entries { lastKind[entry.objectId] = entry.kind }
        let open = lastKind.filter { $0.value != .delete }.map(\.key)
        var following: [String: StoredPost] = [:]
        if !open.isEmpty {
            // A later write's row holds the post as this page's last write left it; else the post itself does.
            let current = try await collect(connection.query("""
                SELECT \(unescaped: Self.postColumnList) FROM posts LEFT JOIN users ON users.id = posts.user_id WHERE posts.object_id = ANY(\(open))
                """, logger: logger).decode(PostRow.self))
            let later = try await collect(connection.query("""
                \(unescaped: changed) WHERE posts.seq IN (SELECT min(seq) FROM post_changes
                    WHERE seq > \(last) AND class_name = 'Posts' AND object_id = ANY(\(open)) GROUP BY object_id)
                """, logger: logger).decode(PostRow.self))
            for row in current + later {
                let post = try Self.storedPost(row)
                following[post.objectId] = post
            }
        }
        return PostChangePage(entries: all, changes: PostChange.assemble(entries, befores: befores, following: following), latest: latest,
                              prunedThrough: prunedThrough)
    }

    /// Forgets the changes made before `date`, and the oldest beyond the newest `bytes` of posts'
    /// copies (as the SQLite store does). A replay from before them is told to read the wall again.
    public func pruneChanges(before date: Date, keepingAtMost bytes: Int) async throws {
        try await call("pruning the change log") {
            _ = try await self.client.query("""
                WITH by_size AS (SELECT max(seq) AS seq FROM (SELECT seq, sum(coalesce(length(text), 0) + coalesce(length(fields::text), 0) + 100)
                                                             OVER (ORDER BY seq DESC) AS newer FROM post_changes) sized WHERE newer > \(bytes)),
                     pruned AS (DELETE FROM post_changes WHERE at < \(date) OR seq <= coalesce((SELECT seq FROM by_size), 0) RETURNING seq)
                UPDATE change_horizon SET pruned_through = greatest(pruned_through, (SELECT coalesce(max(seq), 0) FROM pruned))
                """, logger: self.logger)
        }
    }

    /// Calls `changed` with the seq of each change announced by any server, while the task runs;
    /// returns when the connection that listens is lost, so that the caller can listen again
    /// (and read the log for what it may have missed meanwhile).
    public func listenForChangeSeqs(_ changed: @escaping @Sendable (Int64) -> Void) async throws {
        try await client.withConnection { connection in
            try await connection.listen(on: PostgresSchema.changeChannel) { notifications in
                for try await notification in notifications {
                    if let seq = Int64(notification.payload) { changed(seq) }
                }
            }
        }
    }
}
