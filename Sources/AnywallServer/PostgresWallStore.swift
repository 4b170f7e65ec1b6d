import Foundation
import PostgresStore
import WallDomain

/// The wall in PostgreSQL with PostGIS, as the routes use it: many anywall-server processes may
/// serve one database, each answering any request. Its social layer is `PostgresWall`'s own
/// (`PostgresSocial`, `PostgresRoles`): each call one transaction of the database's, the post it
/// is about locked first.
extension PostgresWall: WallStore {
    package func listenForChanges(_ changed: @escaping @Sendable () -> Void) async throws {
        try await listenForChangeSeqs { _ in changed() }
    }

    /// Writes are announced (NOTIFY): reading the log this often only covers a lost announcement.
    package var changePollInterval: Duration { .seconds(1) }

    package func configParams() async throws -> [String: JSONValue] {
        try await storedParams()
    }

    package func setConfigParams(_ params: [String: JSONValue], deleting: Set<String>, masterKeyOnly: [String: Bool]) async throws {
        try await setParams(params, deleting: deleting, masterKeyOnly: masterKeyOnly)
    }

    package func config() async throws -> RemoteConfig {
        try await fetchConfig()
    }

    package func find(_ query: PostQuery, session: String?) async throws -> (posts: [StoredPost], count: Int?) {
        try await run(PostSearch(query: query), session: session)
    }

    /// The page of posts `search` asks for, and the count of all matching when it asks for one.
    private func run(_ search: PostSearch, session: String?) async throws -> (posts: [StoredPost], count: Int?) {
        let query = search.query
        // `session` picks where the find may read (see `PostgresReplicas`).
        switch search.plan {
        case .placeless:
            let posts = query.limit == 0 ? [] : try await storedPosts(where: search.condition, order: query.order, skip: query.skip, limit: query.limit,
                                                                      for: session)
            return (posts, query.count ? try await countPosts(where: search.condition, for: session) : nil)
        case .nearest(let nearest, _):
            guard query.limit > 0 else { return ([], nil) }
            // Replies, all the search leaves out, come in the same statement for a reader who is
            // not signed in (whose nearest search reads what a find reads), not in a scan after it.
            if search.nearestLeavingOutReplies != nil, query.reader == .user(nil) {
                return (Array(try await nearestPublicPostsAndReplies(nearest, session: session).dropFirst(query.skip)), nil)
            }
            let found = try await nearestPosts(nearest, for: query.reader, session: session)
            guard let leftOut = search.leftOutSearch(after: found) else { return (Array(found.dropFirst(query.skip)), nil) }
            return (search.page(nearest: found, leftOut: try await run(leftOut, session: session).posts), nil)
        case .scan(let boxes, let near):
            let scan = search.scan()
            try await forEachStoredPost(inAny: boxes, near: near, where: search.condition, for: session) { scan.offer($0) }
            return scan.result
        }
    }

    package func post(objectId: String, session: String?) async throws -> StoredPost? {
        try await storedPost(objectId: objectId, for: session)
    }

    package func createPost(_ draft: PostDraft, by writer: PostWriter, requestId: String?) async throws -> StoredPost {
        try await createStoredPost(draft, by: writer, requestId: requestId)
    }

    package func users(where condition: RecordCondition, skip: Int, limit: Int, session: String?) async throws -> (users: [StoredUser], count: Int) {
        try await storedUsers(where: condition, skip: skip, limit: limit, for: session)
    }

    package func user(token: String) async throws -> StoredUser {
        try await storedUser(token: token)
    }
}
