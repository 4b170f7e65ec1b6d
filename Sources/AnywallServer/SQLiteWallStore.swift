import AnywallSupport
import Dispatch
import EmbeddedStore
import Foundation
import NIOPosix
import ParseWire
import WallDomain
import WallStorage

/// The wall in one SQLite file (the embedded wall), shared by every request. Its calls block
/// (SQLite, scrypt), so they run on Dispatch's threads, not on the few threads that run requests'
/// tasks (the server's event loops, or Swift concurrency's cooperative threads), which must stay
/// free to accept and answer other requests. Finds run on connections of their own (`query`): in
/// WAL mode they read beside the writer, so a long scan (a world-sized count) holds up neither
/// posts, log-ins nor the other finds, only the one connection it reads through. A read whose
/// cost is bounded (`boundedQuery`) runs on the event loop that asks instead: it takes less than
/// the hops.
package final class SQLiteWallStore: WallStore, @unchecked Sendable {
    // Unchecked: each EmbeddedWall holds only immutable, thread-safe parts (a GRDB DatabaseQueue,
    // which serialises every access, the hasher and the clock).
    private let wall: EmbeddedWall
    private let readers: [EmbeddedWall]
    private let idle: IdleConnections
    /// One thread for each query connection, the finds' own: a find may burn a core until its time
    /// limit, and on Dispatch's threads (as many as cores) two of them left the writes and session
    /// lookups of every other client waiting seconds for a thread.
    private let findThreads: NIOThreadPool
    private let queue = DispatchQueue(label: "anywall-server.wall", attributes: .concurrent)
    private let postGroups: PostGroupCommit

    /// Shares `wall`; finds go through `readers` (other connections to the same file), or
    /// through `wall` itself when there are none.
    package init(_ wall: EmbeddedWall, readers: [EmbeddedWall] = []) {
        self.wall = wall
        self.readers = readers
        idle = IdleConnections(count: readers.count)
        findThreads = NIOThreadPool(numberOfThreads: max(1, readers.count))
        findThreads.start()
        postGroups = PostGroupCommit(wall: wall, queue: queue)
    }

    deinit {
        findThreads.shutdownGracefully { _ in }
    }

    /// Runs `body` with the wall on a Dispatch thread.
    package func run<T: Sendable>(_ body: @escaping @Sendable (EmbeddedWall) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(self.wall) }) }
        }
    }

    /// Runs `body`, which only reads, on an idle query connection (waiting for one when all are
    /// busy) on the connection's own thread.
    package func query<T: Sendable>(_ body: @escaping @Sendable (EmbeddedWall) throws -> T) async throws -> T {
        guard !readers.isEmpty else { return try await run(body) }
        let reader = await idle.take()
        return try await findThreads.runIfActive { try self.reading(with: reader, body) }
    }

    /// Runs `body`, a read of a few rows (a post, a user or the config by its key, a nearest
    /// search: a limit's worth of posts and the index around them), in place when called on an
    /// event loop (the server runs requests' tasks there) and a query connection is idle, else on
    /// a Dispatch thread. It usually takes no longer than the hops to a Dispatch thread and back
    /// (docs/performance.md); the slowest nearest searches hold the loop a few
    /// milliseconds (`PostSearch.isBounded`). On Swift concurrency's own cooperative threads it
    /// hops: run there, it measured slower than the hops.
    ///
    /// With every query connection busy (slow finds, perhaps all one client's), it does not wait
    /// for one: the main connection answers, which waits only for writes (group-committed, short),
    /// so a session lookup or a fetch is never held up by other clients' finds.
    package func boundedQuery<T: Sendable>(_ body: @escaping @Sendable (EmbeddedWall) throws -> T) async throws -> T {
        guard !readers.isEmpty, let reader = idle.takeIfIdle() else { return try await run(body) }
        guard MultiThreadedEventLoopGroup.currentEventLoop != nil else {
            return try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(with: Result { try self.reading(with: reader, body) }) }
            }
        }
        return try reading(with: reader, body)
    }

    /// Runs `body` on query connection `reader`, taken for it, every read it makes under one
    /// deadline of the connection's time limit; then gives the connection back.
    private func reading<T>(with reader: Int, _ body: (EmbeddedWall) throws -> T) throws -> T {
        defer { idle.give(reader) }
        return try readers[reader].limitingQueries { try body(readers[reader]) }
    }
}

extension SQLiteWallStore {
    package func postChanges(after seq: Int64, limit: Int) async throws -> PostChangePage {
        try await run { try $0.postChanges(after: seq, limit: limit) }
    }

    package func pruneChanges(before date: Date, keepingAtMost bytes: Int) async throws {
        try await run { try $0.pruneChanges(before: date, keepingAtMost: bytes) }
    }

    /// A SQLite file announces nothing: other processes' writes are found by reading the log.
    package func listenForChanges(_ changed: @escaping @Sendable () -> Void) async throws {}

    /// The CLI may write to the file the server serves: its posts reach subscribers within this.
    package var changePollInterval: Duration { .milliseconds(100) }

    package func configParams() async throws -> [String: JSONValue] {
        try await run { try $0.storedParams() }
    }

    package func masterKeyOnlyParams() async throws -> Set<String> {
        try await run { try $0.masterKeyOnlyParams() }
    }

    package func setConfigParams(_ params: [String: JSONValue], deleting: Set<String>, masterKeyOnly: [String: Bool]) async throws {
        try await run { try $0.setParams(params, deleting: deleting, masterKeyOnly: masterKeyOnly) }
    }

    package func config() async throws -> RemoteConfig {
        try await boundedQuery { try $0.fetchConfig() }
    }

    package func find(_ query: PostQuery, session: String?) async throws -> (posts: [StoredPost], count: Int?) {
        let search = PostSearch(query: query)
        if search.isBounded { return try await boundedQuery { try Self.run(search, on: $0) } }
        if let nearest = search.nearestLeavingOutReplies, PostSearch.isBounded(nearest) { return try await find(search, nearest) }
        return try await self.query { try Self.run(search, on: $0) }
    }

    /// A nearest search whose answer may hold replies (`PostSearch.nearestLeavingOutReplies`): the
    /// search, and whether any reply lies near enough to be on the page, as a bounded read; the
    /// scan for those replies, when there are any, as a find.
    private func find(_ search: PostSearch, _ nearest: WallQuery) async throws -> (posts: [StoredPost], count: Int?) {
        let reader = search.query.reader
        let (found, leftOut) = try await boundedQuery { wall in
            let found = try wall.nearestPosts(nearest, for: reader)
            guard let leftOut = search.leftOutSearch(after: found), case .scan(_, let near) = leftOut.plan,
                  try wall.holdsReplies(inAny: BoundingBox.covering(center: nearest.center, radius: near?.distance ?? WallQuery.wholeEarth))
            else { return (found, nil as PostSearch?) }
            return (found, leftOut)
        }
        guard let leftOut else { return (Array(found.dropFirst(search.query.skip)), nil) }
        return (search.page(nearest: found, leftOut: try await query { try Self.run(leftOut, on: $0).posts }), nil)
    }

    /// The page of posts `search` asks for, and the count of all matching when it asks for one.
    private static func run(_ search: PostSearch, on wall: EmbeddedWall) throws -> (posts: [StoredPost], count: Int?) {
        let query = search.query
        switch search.plan {
        case .placeless:
            let posts = query.limit == 0 ? [] : try wall.storedPosts(where: search.condition, order: query.order, skip: query.skip, limit: query.limit)
            return (posts, query.count ? try wall.countPosts(where: search.condition) : nil)
        case .nearest(let nearest, _):
            guard query.limit > 0 else { return ([], nil) }
            let found = try wall.nearestPosts(nearest, for: query.reader)
            guard let leftOut = search.leftOutSearch(after: found) else { return (Array(found.dropFirst(query.skip)), nil) }
            return (search.page(nearest: found, leftOut: try run(leftOut, on: wall).posts), nil)
        case .scan(let candidates, _):
            guard query.order.isEmpty else {
                let scan = search.scan()
                try wall.forEachStoredPost(inAny: candidates, where: search.condition) { scan.offer($0) }
                return scan.result
            }
            // The page's order needs only each post's place: the rest is read for the page alone.
            var page = PostPage<PlacedPost>(keeping: query.skip + query.limit, precedes: search.placeOrder)
            var count = 0
            let posts = try wall.placedPosts(inAny: candidates, where: search.condition, offer: { (place: PlacedPost) in
                guard query.filter.admits(place.location) else { return }
                count += 1
                page.offer(place)
            }, chosen: { page.posts.dropFirst(query.skip).map { (place: PlacedPost) in place.rowId } })
            return (posts, query.count ? count : nil)
        }
    }

    package func post(objectId: String, session: String?) async throws -> StoredPost? {
        try await boundedQuery { try $0.storedPost(objectId: objectId) }
    }

    package func createPost(_ draft: PostDraft, by writer: PostWriter, requestId: String?) async throws -> StoredPost {
        try await postGroups.create(PostCreation(draft: draft, by: writer, requestId: requestId))
    }

    package func updatePost(objectId: String, changes: PostChanges, by writer: PostWriter, requestId: String?) async throws -> (updatedAt: Date, fields: [String: JSONValue]) {
        try await run { try $0.updatePost(objectId: objectId, changes: changes, by: writer, requestId: requestId) }
    }

    package func postSchema() async throws -> PostSchema {
        try await query { try $0.postSchema() }
    }

    package func changePostFields(adding types: [String: FieldType], deleting names: Set<String>) async throws {
        try await run { try $0.changePostFields(adding: types, deleting: names) }
    }

    package func deletePost(objectId: String, by writer: PostWriter) async throws {
        try await run { try $0.deletePost(objectId: objectId, by: writer) }
    }

    package func users(where condition: RecordCondition, skip: Int, limit: Int, session: String?) async throws -> (users: [StoredUser], count: Int) {
        try await query { try $0.storedUsers(where: condition, skip: skip, limit: limit) }
    }

    package func sessionPeriod(token: String) async throws -> (started: Date, expires: Date) {
        try await run { try $0.sessionPeriod(token: token) }
    }

    package func user(token: String) async throws -> StoredUser {
        try await boundedQuery { try $0.storedUser(token: token) }
    }

    package func signUp(username: String, password: String, name: String?) async throws -> (session: Session, user: StoredUser) {
        try await run { wall in
            let session = try wall.signUp(username: username, password: password, name: name)
            return (session, try Self.account(of: session, on: wall))
        }
    }

    package func logIn(username: String, password: String) async throws -> (session: Session, user: StoredUser) {
        try await run { wall in
            let session = try wall.logIn(username: username, password: password)
            return (session, try Self.account(of: session, on: wall))
        }
    }

    package func updateAccount(objectId: String, username: String?, password: String?, name: String??, keepingSession token: String?) async throws {
        try await run { try $0.updateAccount(objectId: objectId, username: username, password: password, name: name, keepingSession: token) }
    }

    package func deleteAccount(objectId: String) async throws {
        try await run { try $0.deleteAccount(objectId: objectId) }
    }

    package func accounts(with identities: [AuthIdentity]) async throws -> [StoredUser] {
        try await boundedQuery { try $0.accounts(with: identities) }
    }

    package func identities(ofUser objectId: String) async throws -> [AuthIdentity] {
        try await boundedQuery { try $0.identities(ofUser: objectId) }
    }

    package func signUp(identities: [AuthIdentity], username: String?, password: String?, name: String?) async throws -> (session: Session, user: StoredUser) {
        try await run { wall in
            let session = try wall.signUp(identities: identities, username: username, password: password, name: name)
            return (session, try Self.account(of: session, on: wall))
        }
    }

    package func logIn(objectId: String, identities: [AuthIdentity]) async throws -> (session: Session, user: StoredUser) {
        try await run { wall in
            let session = try wall.logIn(objectId: objectId, identities: identities)
            return (session, try Self.account(of: session, on: wall))
        }
    }

    package func changeIdentities(ofUser objectId: String, linking: [AuthIdentity], unlinking: Set<String>) async throws {
        try await run { try $0.changeIdentities(ofUser: objectId, linking: linking, unlinking: unlinking) }
    }

    package func endSession(token: String) async throws {
        try await run { try $0.endSession(token: token) }
    }

    package func forgetRequestIds(before date: Date) async throws {
        try await run { try $0.forgetRequestIds(before: date) }
    }

    /// The account a session was just opened for.
    private static func account(of session: Session, on wall: EmbeddedWall) throws -> StoredUser {
        guard let user = try wall.storedUser(objectId: session.user.objectId) else {
            throw AnywallError.failure("the account of a session just opened is gone")
        }
        return user
    }
}

// The social layer (`SocialStore`), the embedded wall's own transactions.
extension SQLiteWallStore {
    package func reply(to parent: String, text: String, at location: GeoPoint, token: String) async throws -> StoredPost {
        try await run { wall in
            let reply = try wall.reply(to: parent, text: text, at: location, radius: CommunityRules.anyDistance, session: try Self.session(token, on: wall))
            guard let stored = try wall.storedPost(objectId: reply.objectId) else { throw AnywallError.failure("a reply just written is gone") }
            return stored
        }
    }

    package func vote(_ vote: Vote, on post: String, from location: GeoPoint?, token: String) async throws -> StoredActivity? {
        try await run { try $0.storedVote(vote, on: post, from: location, token: token) }
    }

    package func changeVote(_ activityId: String, to vote: Vote, from location: GeoPoint?, token: String) async throws -> StoredActivity? {
        try await run { try $0.changeStoredVote(activityId, to: vote, from: location, token: token) }
    }

    package func report(_ post: String, reason: ReportReason, note: String?, from location: GeoPoint, token: String) async throws -> StoredActivity {
        try await run { try $0.storedReport(post, reason: reason, note: note, from: location, token: token) }
    }

    package func activities(_ filter: ActivityFilter, skip: Int, limit: Int, token: String) async throws -> [StoredActivity] {
        try await query { try $0.storedActivities(filter, skip: skip, limit: limit, token: token) }
    }

    package func delete(_ post: String, token: String) async throws {
        try await run { wall in try wall.delete(post, session: try Self.session(token, on: wall)) }
    }

    package func moderate(_ post: String, _ action: ModeratorAction, token: String) async throws {
        try await run { wall in _ = try wall.moderate(post, action, session: try Self.session(token, on: wall)) }
    }

    package func isModerator(token: String) async throws -> Bool {
        try await boundedQuery { try $0.isModerator(token: token) }
    }

    package func createRole(name: String, acl: [String: PostAccess.Rights], users: [String]) async throws -> StoredRole? {
        try await run { try $0.createRole(name: name, acl: acl, users: users) }
    }

    package func roles(name: String?, objectId: String?, skip: Int, limit: Int) async throws -> [StoredRole] {
        try await query { try $0.storedRoles(name: name, objectId: objectId, skip: skip, limit: limit) }
    }

    package func changeRoleUsers(_ objectId: String, adding: [String], removing: [String]) async throws -> StoredRole? {
        try await run { try $0.changeRoleUsers(objectId, adding: adding, removing: removing) }
    }

    package func deleteRole(_ objectId: String) async throws -> Bool {
        try await run { try $0.deleteRole(objectId) }
    }

    package func roleNames(ofUser userId: String) async throws -> Set<String> {
        try await boundedQuery { try $0.roleNames(ofUser: userId) }
    }

    /// The session `token` opened, as the social layer's calls take it.
    private static func session(_ token: String, on wall: EmbeddedWall) throws -> Session {
        let user = try wall.storedUser(token: token)
        return Session(backend: wall.identity, token: token, user: User(objectId: user.objectId, username: user.username, name: user.name))
    }
}
