import AnywallSupport
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import WallDomain

/// The wall in a PostgreSQL database with PostGIS, shared by any number of anywall-server
/// processes: users, sessions, posts, request ids and config all live in the database, so any
/// server answers any request. Through a pool of connections (postgres-nio's `PostgresClient`);
/// every call gives up after `timeout`, so a lost database makes errors, never requests that hang.
///
/// Accounts and posts keep the embedded wall's rules (the same password hashes, digests of
/// session tokens, request ids kept in the write's transaction) and throw the same `AnywallError`
/// cases; a failure of the database itself is `AnywallError.backendUnreachable` with its reason.
public final class PostgresWall: Sendable {
    public let address: PostgresAddress
    let client: PostgresClient
    /// The finds' own pool: a find's cost is its client's to choose (a count over the earth, a
    /// costly `$regex`), so as many slow finds as it has connections hold up only other finds,
    /// never a session lookup, a log-in or a write, which go through `client`.
    let finds: PostgresClient
    /// Streaming replicas for reads, when there are any.
    let replicas: PostgresReplicas?
    private let running: Task<Void, Never>
    let hasher: PasswordHasher
    let clock: WallClock
    private let sessionLength: Duration
    private let decodedParams = DecodedParams()
    /// The longest a call may wait for a connection and its answer.
    let timeout: Duration
    /// The limit PostgreSQL itself puts on each statement (`statement_timeout`), when serving.
    let queryTimeLimit: QueryTimeLimit?
    let logger = Logger(label: "anywall-postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The wall's identity in sessions it opens.
    public var identity: String { "postgres:\(address.host):\(address.port)/\(address.database)" }

    /// Connects to the database at `address`, checks it has PostGIS, brings the schema up to date
    /// and opens a pool of at most `connections` (and half as many more for finds, `finds`), and
    /// one of `connections` to each of `replicas` (streaming
    /// replicas of it, which serve reads while they keep up). Throws `PostgresWallError` when the
    /// primary cannot be used; a replica that is down is only skipped until it is back.
    /// With `queryTimeLimit`, the database stops any statement still running after it (the schema's
    /// migrations excepted), and a call it stopped throws `QueryTimeLimit.Exceeded`.
    public init(_ address: PostgresAddress, replicas: [PostgresAddress] = [], connections: Int = 16, hasher: PasswordHasher = .standard, clock: WallClock = .system,
                sessionLength: Duration, timeout: Duration = .seconds(10), queryTimeLimit: QueryTimeLimit? = nil) async throws(PostgresWallError) {
        self.address = address
        self.hasher = hasher
        self.clock = clock
        self.sessionLength = sessionLength
        self.timeout = timeout
        self.queryTimeLimit = queryTimeLimit
        let startup = queryTimeLimit.map { [("statement_timeout", "\($0.milliseconds)")] } ?? []
        var configuration = PostgresClient.Configuration(host: address.host, port: address.port, username: address.username,
                                                         password: address.password, database: address.database, tls: .disable)
        configuration.options.maximumConnections = max(1, connections)
        configuration.options.connectTimeout = timeout
        configuration.options.additionalStartupParameters = startup
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        var findsConfiguration = configuration
        findsConfiguration.options.maximumConnections = max(1, connections / 2)
        let finds = PostgresClient(configuration: findsConfiguration, backgroundLogger: logger)
        self.finds = finds
        let readers = replicas.isEmpty ? nil : PostgresReplicas(replicas, connections: connections, timeout: timeout, startup: startup, logger: logger)
        self.replicas = readers
        let logger = logger
        running = Task {
            await withDiscardingTaskGroup { group in
                group.addTask { await client.run() }
                group.addTask { await finds.run() }
                if let readers { group.addTask { await readers.run(primary: client, logger: logger) } }
            }
        }
        do {
            try await Self.check(address, timeout: timeout, logger: logger)
            try await Self.within(timeout, "PostgreSQL at \(address) failed while preparing the wall") {
                try await PostgresSchema.migrate(client, logger: self.logger)
            }
        } catch {
            running.cancel()
            throw Self.startFailure(error, address)
        }
    }

    /// Closes the pool.
    public func close() {
        running.cancel()
    }

    /// One connection of its own, so that a database that is down or refuses the user says so
    /// at once (the pool would keep trying), then closed.
    private static func check(_ address: PostgresAddress, timeout: Duration, logger: Logger) async throws {
        var configuration = PostgresConnection.Configuration(host: address.host, port: address.port, username: address.username,
                                                             password: address.password, database: address.database, tls: .disable)
        configuration.options.connectTimeout = .init(timeout)
        let settings = configuration
        let connection = try await within(timeout, "cannot reach PostgreSQL at \(address)") {
            try await PostgresConnection.connect(configuration: settings, id: 0, logger: logger)
        }
        try? await connection.close()
    }

    private static func startFailure(_ error: any Error, _ address: PostgresAddress) -> PostgresWallError {
        if let known = error as? PostgresWallError { return known }
        if let psql = error as? PSQLError {
            let state = psql.serverInfo?[.sqlState] ?? ""
            let message = psql.serverInfo?[.message] ?? "\(psql.code)"
            // 28xxx: authorization, 3D000: no such database, 42501: insufficient privilege.
            if state.hasPrefix("28") || state == "3D000" || state == "42501" {
                return .refused("PostgreSQL at \(address) refused: \(message)")
            }
            if psql.code == .server { return .unreachable("PostgreSQL at \(address) failed: \(message)") }
            return .unreachable("cannot reach PostgreSQL at \(address): \(reason(psql))")
        }
        if let failure = error as? AnywallError { return .unreachable(failure.reason) }
        return .unreachable("cannot reach PostgreSQL at \(address): \(error)")
    }

    // MARK: Running calls

    /// Runs `body` with a deadline: past `timeout`, it is cancelled and the call fails. The
    /// deadline is a timer of an event loop, removed when the answer comes: a `Task.sleep` raced
    /// against each call cost two child tasks and a timer the runtime held until it ran out.
    static func within<T: Sendable>(_ timeout: Duration, _ what: @autoclosure () -> String,
                                    _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let running = Task { try await body() }
        let expiry = Expiry()
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(timeout)) {
            expiry.expired.store(true, ordering: .sequentiallyConsistent)
            running.cancel()
        }
        defer { timer.cancel() }
        // Cut short by the timer, `body` may end in any error: the flag says it was the deadline.
        do {
            let result = try await withTaskCancellationHandler { try await running.value } onCancel: { running.cancel() }
            if !expiry.expired.load(ordering: .sequentiallyConsistent) { return result }
        } catch {
            if !expiry.expired.load(ordering: .sequentiallyConsistent) { throw error }
        }
        throw AnywallError.backendUnreachable("\(what()): no answer within \(timeout.components.seconds) s")
    }

    /// Whether a call's timer ran out, set on the event loop, read by the call's task.
    private final class Expiry: Sendable {
        let expired = Atomic<Bool>(false)
    }

    /// How long a read waits for its answer: `timeout`, or longer than the database's own limit
    /// on a statement, so that a find it stops is answered as stopped, not as a lost database.
    private var readDeadline: Duration {
        queryTimeLimit.map { max(timeout, $0.duration + .seconds(2)) } ?? timeout
    }

    /// Runs `body` with a deadline (`timeout`; a read's, `readDeadline`), the database's failures
    /// turned into `backendUnreachable`; the wall's own answers (`AnywallError`) pass as they are,
    /// and a read the database stopped at `queryTimeLimit` is `QueryTimeLimit.Exceeded`. A write it
    /// stopped (one held behind a lock past the limit) is not the client's query: it stays a failure
    /// of the wall, which a client retries (the outbox keeps the post). `deadline` replaces the
    /// timeout for work that grows with the wall (an index built again).
    func call<T: Sendable>(_ what: String, reading: Bool = false, deadline: Duration? = nil,
                           _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            // A lost database shows as no connection to lease: the deadline turns that into an error too.
            return try await Self.within(deadline ?? (reading ? readDeadline : timeout), "the wall at \(address) failed while \(what)", body)
        } catch let error as AnywallError {
            throw error
        } catch let error as PSQLError where reading && stoppedAtLimit(error) != nil {
            throw stoppedAtLimit(error)!
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "2201B" {
            // PostgreSQL's regular expressions refuse a few that Swift's take (a{1000}): the query's fault.
            throw AnywallError.inputRejected("$regex is not a regular expression PostgreSQL takes: \(Self.reason(error))")
        } catch let error as PSQLError {
            throw AnywallError.backendUnreachable("the wall at \(address) failed while \(what): \(Self.reason(error))")
        } catch is CancellationError {
            throw AnywallError.backendUnreachable("the wall at \(address) failed while \(what): cancelled")
        } catch {
            throw AnywallError.backendUnreachable("the wall at \(address) failed while \(what): \(error)")
        }
    }

    /// Runs a read on a replica that is well and has the session `token`'s last write, else (or
    /// when the replica fails it) on the primary: through the finds' pool when `finding` (a
    /// find whose cost its client chose), else through the main one.
    func read<T: Sendable>(_ what: String, for token: String?, finding: Bool = false,
                           _ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
        if let replica = replicas?.replica(for: token) {
            do {
                return try await Self.within(min(timeout, .seconds(2)), "the replica at \(replica.address) failed while \(what)") {
                    try await body(replica.client)
                }
            } catch let error as PSQLError where stoppedAtLimit(error) != nil {
                // The query's cost, not the replica's health: the primary would stop it too.
                throw stoppedAtLimit(error)!
            } catch {
                replica.skip()
            }
        }
        return try await call(what, reading: true) { try await body(finding ? self.finds : self.client) }
    }

    /// The find `error` reports stopped at `queryTimeLimit` (PostgreSQL's 57014, a statement it
    /// cancelled), if it is one.
    private func stoppedAtLimit(_ error: PSQLError) -> QueryTimeLimit.Exceeded? {
        guard let queryTimeLimit, error.serverInfo?[.sqlState] == "57014" else { return nil }
        return QueryTimeLimit.Exceeded(queryTimeLimit)
    }

    /// Notes a write of the session `token`, so that its reads see it (see `PostgresReplicas`).
    func noteWrite(by token: String) async {
        await replicas?.noteWrite(by: token, primary: client, logger: logger)
    }

    /// A transaction on one pooled connection, committed when `body` returns, rolled back when it throws.
    /// It takes the change log's lock first, as a write to a post would (`PostgresSchema.changeLock`):
    /// taken later, after the row locks a social write takes, two writers could wait on each other.
    func transaction<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await call(what) {
            do {
                return try await self.client.withTransaction(logger: self.logger) { connection in
                    _ = try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.changeLock))", logger: self.logger)
                    return try await body(connection)
                }
            } catch let failure as PostgresTransactionError {
                // The wall's own answer (a refusal) comes back wrapped; the database's failures stay as they are.
                if let refusal = failure.closureError as? AnywallError, failure.rollbackError == nil { throw refusal }
                throw failure.closureError ?? failure.commitError ?? failure.beginError ?? failure.rollbackError ?? failure
            }
        }
    }

    /// What PostgreSQL or the connection said, in one line.
    static func reason(_ error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] { return message }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    // MARK: Accounts

    /// A new account and a session for it; `usernameTaken` when the name is in use (ASCII case ignored).
    public func signUp(username: String, password: String, name: String?) async throws -> (session: Session, user: StoredUser) {
        let account = try NewAccount(username: username, password: password, name: name)
        return try await signUp(identities: [], username: account.username, password: account.password, name: account.name)
    }

    /// Changes the account `objectId`: its username (unique ignoring case), its password (which
    /// ends every other session of the account, keeping the one of `token`), its name (`.some(nil)`
    /// removes it). `usernameTaken` when the new username is another account's, `notWritable`
    /// when no account has that id.
    public func updateAccount(objectId: String, username: String?, password: String?, name: String??, keepingSession token: String?) async throws {
        let username = try username.map(Username.validated)
        let password = try password.map(Password.validated)
        let hasher = self.hasher
        var newHash: String?
        if let password { newHash = try await BlockingWork.run { try hasher.hash(password) } }
        let hash = newHash
        let keep = token.map(RandomIdentifier.tokenDigest) ?? ""
        let newName = try name.map { try DisplayName.validated($0) }
        try await transaction("changing an account") { connection in
            try await self.requireAccount(connection, objectId)
            if let username {
                do {
                    try await connection.query("UPDATE users SET username = \(username) WHERE object_id = \(objectId)", logger: self.logger)
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                    // The unique index on the folded username: another account has it.
                    throw AnywallError.usernameTaken(username)
                }
            }
            if let newName {
                try await connection.query("UPDATE users SET name = \(newName) WHERE object_id = \(objectId)", logger: self.logger)
            }
            if let hash {
                try await connection.query("UPDATE users SET password_hash = \(hash) WHERE object_id = \(objectId)", logger: self.logger)
                try await connection.query("""
                    DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE object_id = \(objectId)) AND token_digest <> \(keep)
                    """, logger: self.logger)
            }
        }
    }

    /// Deletes the account `objectId` and its sessions (`notWritable` when there is none). Its
    /// posts stay, without an author.
    public func deleteAccount(objectId: String) async throws {
        try await transaction("deleting an account") { connection in
            try await self.requireAccount(connection, objectId)
            try await connection.query("UPDATE posts SET user_id = NULL WHERE user_id = (SELECT id FROM users WHERE object_id = \(objectId))",
                                       logger: self.logger)
            try await connection.query("DELETE FROM users WHERE object_id = \(objectId)", logger: self.logger)
        }
    }

    /// Refuses a change to an account that does not exist, as to a post that does not; holds
    /// the account's row until the transaction ends.
    private func requireAccount(_ connection: PostgresConnection, _ objectId: String) async throws {
        let found = try await collect(connection.query("SELECT id FROM users WHERE object_id = \(objectId) FOR UPDATE", logger: logger)
            .decode(Int64.self))
        guard !found.isEmpty else { throw AnywallError.notWritable(objectId: objectId) }
    }

    /// A new session for the account, when `password` is its password; `badCredentials` otherwise,
    /// `noPassword` for an author brought in by import who has not set one.
    public func logIn(username: String, password: String) async throws -> (session: Session, user: StoredUser) {
        let username = try Username.validated(username)
        let rows = try await call("logging in") {
            try await self.collect(self.client.query("""
                SELECT id, object_id, username, name, password_hash, created_at FROM users
                WHERE \(unescaped: PostgresSchema.foldedUsername("username")) = translate(\(username), \(PostgresSchema.upperCase), \(PostgresSchema.lowerCase))
                """, logger: self.logger).decode((Int64, String, String, String?, String?, Date).self))
        }
        let hasher = self.hasher
        guard let (id, objectId, storedName, name, hash, createdAt) = rows.first else {
            _ = try await BlockingWork.run { hasher.matchesNoAccount(password) }
            throw AnywallError.badCredentials
        }
        guard let hash else {
            _ = try await BlockingWork.run { hasher.matchesNoAccount(password) }
            throw AnywallError.noPassword(username: storedName)
        }
        guard try await BlockingWork.run({ try PasswordHasher.verify(password, against: hash) }) else { throw AnywallError.badCredentials }
        let user = StoredUser(objectId: objectId, username: storedName, name: name, createdAt: createdAt)
        let now = Self.millisecond(clock.now())
        return try await transaction("logging in") { connection in
            (try await self.openSession(connection, userId: id, user: user, now: now), user)
        }
    }

    /// Ends the session `token` opened; `sessionExpired` when there is none.
    public func endSession(token: String) async throws {
        let digest = RandomIdentifier.tokenDigest(token)
        let ended = try await call("logging out") {
            try await self.collect(self.client.query("DELETE FROM sessions WHERE token_digest = \(digest) RETURNING 1",
                                                     logger: self.logger).decode(Int.self))
        }
        if ended.isEmpty { throw AnywallError.sessionExpired }
    }

    /// When the session `token` began and when it ends; `sessionExpired` when it is unknown or over.
    public func sessionPeriod(token: String) async throws -> (started: Date, expires: Date) {
        let digest = RandomIdentifier.tokenDigest(token)
        let oldest = SessionLength(sessionLength).oldestOpenStart(at: clock.now())
        let rows = try await call("reading a session") {
            try await self.collect(self.client.query("""
                SELECT created_at FROM sessions WHERE token_digest = \(digest) AND created_at >= \(oldest)
                """, logger: self.logger).decode(Date.self))
        }
        guard let started = rows.first else { throw AnywallError.sessionExpired }
        return (started, SessionLength(sessionLength).end(ofSessionStartedAt: started))
    }

    /// The account of the session `token`; `sessionExpired` when it is unknown, ended or older
    /// than the session length.
    public func storedUser(token: String) async throws -> StoredUser {
        try await call("reading a session") { try await self.user(self.client, token: token).user }
    }

    func openSession(_ connection: PostgresConnection, userId: Int64, user: StoredUser, now: Date) async throws -> Session {
        let token = RandomIdentifier.sessionToken()
        let digest = RandomIdentifier.tokenDigest(token)
        try await connection.query("INSERT INTO sessions (token_digest, user_id, created_at) VALUES (\(digest), \(userId), \(now))",
                                   logger: logger)
        return Session(backend: identity, token: token, user: User(objectId: user.objectId, username: user.username, name: user.name))
    }

    /// The user a session token belongs to, with their row id.
    func user(_ database: some PostgresQueryRunner, token: String) async throws -> (id: Int64, user: StoredUser) {
        let digest = RandomIdentifier.tokenDigest(token)
        let oldest = SessionLength(sessionLength).oldestOpenStart(at: clock.now())
        let rows = try await collect(database.run("""
            SELECT users.id, users.object_id, users.username, users.name, users.created_at
            FROM sessions JOIN users ON users.id = sessions.user_id
            WHERE sessions.token_digest = \(digest) AND sessions.created_at >= \(oldest)
            """, logger: logger).decode((Int64, String, String, String?, Date).self))
        guard let (id, objectId, username, name, createdAt) = rows.first else { throw AnywallError.sessionExpired }
        return (id, StoredUser(objectId: objectId, username: username, name: name, createdAt: createdAt))
    }

    // MARK: Config

    /// The config parameters set on this wall: none on a new wall.
    public func storedParams() async throws -> [String: JSONValue] {
        try await read("reading the config", for: nil) { client in try await self.storedParams(client) }
    }

    /// The config parameters as `database` reads them (a transaction's connection: as of its
    /// change).
    func storedParams(_ database: some PostgresQueryRunner) async throws -> [String: JSONValue] {
        let rows = try await collect(database.run("SELECT key, value FROM config", logger: logger).decode((String, String).self))
        return try decodedParams.params(from: Dictionary(rows) { _, last in last })
    }

    /// Sets each of `params` (validated by the caller), removes those named in `deleting`, and
    /// marks each key of `masterKeyOnly` as read with the master key only or not, in one
    /// transaction, keeping the others.
    public func setParams(_ params: [String: JSONValue], deleting: Set<String>, masterKeyOnly: [String: Bool]) async throws {
        let encoded = try params.map { ($0.key, String(decoding: try JSONEncoder().encode($0.value), as: UTF8.self)) }
        try await transaction("setting the config") { connection in
            for (key, value) in encoded {
                try await connection.query("""
                    INSERT INTO config (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """, logger: self.logger)
            }
            for key in deleting {
                try await connection.query("DELETE FROM config WHERE key = \(key)", logger: self.logger)
            }
            for (key, flag) in masterKeyOnly {
                try await connection.query("UPDATE config SET master_key_only = \(flag) WHERE key = \(key)", logger: self.logger)
            }
        }
    }

    /// The config keys only the master key reads.
    public func masterKeyOnlyParams() async throws -> Set<String> {
        let keys = try await read("reading the config", for: nil) { client in
            try await self.collect(client.query("SELECT key FROM config WHERE master_key_only", logger: self.logger).decode(String.self))
        }
        return Set(keys)
    }

    /// The config, Anywall's defaults for what this wall has not set.
    public func fetchConfig() async throws -> RemoteConfig {
        RemoteConfig(setOnWall: try await storedParams())
    }

    // MARK: Helpers

    /// Every row of `rows`, read to the end.
    func collect<Row: Sendable>(_ rows: AsyncThrowingMapSequence<PostgresRowSequence, Row>) async throws -> [Row] {
        var all: [Row] = []
        for try await row in rows { all.append(row) }
        return all
    }

    /// `date` to the millisecond, as Parse's dates and the embedded wall keep it, as PostgreSQL
    /// will keep it: postgres-nio cuts a Date to its microsecond, so a millisecond whose Double
    /// lies a hair below it (…056999 µs) would be stored a microsecond early, and `$lt` its own
    /// millisecond would find it. The nearest Date that is stored exactly.
    static func millisecond(_ date: Date) -> Date {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        var exact = Date(timeIntervalSince1970: milliseconds / 1000)
        // Past year 9999 (no date Parse writes) PostgreSQL's range ends anyway: no step to take.
        guard abs(milliseconds) < 1e15 else { return exact }
        let wanted = (Int64(milliseconds) - 946_684_800_000) * 1000
        // A few steps of the Double's last place at most; bounded all the same.
        for _ in 0..<16 {
            let stored = storedMicroseconds(exact)
            guard stored != wanted else { break }
            let seconds = exact.timeIntervalSinceReferenceDate
            exact = Date(timeIntervalSinceReferenceDate: stored < wanted ? seconds.nextUp : seconds.nextDown)
        }
        return exact
    }

    /// The microseconds since 2000 that postgres-nio writes for `date` (it cuts, toward zero).
    private static func storedMicroseconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince(Date(timeIntervalSince1970: 946_684_800)) * 1_000_000)
    }
}

/// What runs a query: the pool or one of its connections (inside a transaction).
protocol PostgresQueryRunner: Sendable {
    func run(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence
}

extension PostgresClient: PostgresQueryRunner {
    func run(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger)
    }
}

extension PostgresConnection: PostgresQueryRunner {
    func run(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger)
    }
}
