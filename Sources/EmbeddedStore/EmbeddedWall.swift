import AnywallSupport
import CSQLite
import Foundation
import GRDB
import WallDomain

/// The wall in one SQLite file, through GRDB: zero set-up, safe for several processes at once
/// (WAL, a busy timeout, and write transactions that take the lock up front).
public final class EmbeddedWall: WallBackend {
    public let file: URL
    public var identity: String { Self.identity(of: file) }
    public var description: String { "the embedded wall \(file.path)" }
    /// The file is on this machine: there is nothing to cache or queue.
    public var isRemote: Bool { false }
    let database: DatabaseQueue
    let hasher: PasswordHasher
    let clock: WallClock
    private let decodedParams = DecodedParams()
    /// The authors its nearest searches have read.
    let authors = AuthorCache()
    /// The location index's nodes its nearest searches have read.
    let indexNodes = IndexNodeCache()
    /// How long a session lasts from its log-in (Parse Server's `sessionLength`).
    let sessionLength: Duration
    /// The limit on each find (`read`, `limitingQueries`), when the wall serves others' queries.
    private let queryDeadline: QueryDeadline?

    /// Parse Server's default session length: a year.
    public static let defaultSessionLength = Duration.seconds(31_536_000)

    /// How much of the file a long-lived process maps into memory (`memoryMapped`): all of it, as
    /// far as SQLite allows (Debian's build stops at 2 GiB; the rest of a larger wall is read as before).
    static let memoryMapSize = 1 << 40

    /// Whether SQLite runs without the locks it does not need in this process (`csqlite_configure`),
    /// set before the first wall opens: the mutexes Debian's build takes on every call and every
    /// allocation guard nothing here, and cost a load's writing a tenth of its time.
    private static let lockFree = csqlite_configure() == 1

    /// Opens the wall at `file`, creating it (and its folder) when missing.
    ///
    /// `memoryMapped` is for a long-lived process (the server): its queries then read the file's
    /// pages where the OS keeps them, with no system call and no copy into each connection's
    /// cache. A one-shot command leaves it off: mapping costs it more than it saves.
    /// `queryTimeLimit` stops each find (posts or users by a condition, counts) that runs past it
    /// with `QueryTimeLimit.Exceeded`: for the server's query connections, which any client's
    /// query may reach.
    public init(file: URL, hasher: PasswordHasher = .standard, clock: WallClock = .system,
                sessionLength: Duration = defaultSessionLength, memoryMapped: Bool = false,
                queryTimeLimit: QueryTimeLimit? = nil) throws {
        self.file = file
        self.hasher = hasher
        self.clock = clock
        self.sessionLength = sessionLength
        let queryDeadline = queryTimeLimit.map(QueryDeadline.init)
        self.queryDeadline = queryDeadline
        _ = Self.lockFree
        var config = Configuration()
        // WAL is set once, when the wall is created (it persists in the file). GRDB's `.wal`
        // option would instead write to the wall at every open, which a one-shot reader pays.
        config.busyMode = .timeout(30)
        config.prepareDatabase { db in
            // FULL: a commit is on disk (the WAL synced) before it returns, so a post that was
            // answered survives a power cut, not only a crash of the process.
            try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA cache_size = -65536")
            if memoryMapped { try db.execute(sql: "PRAGMA mmap_size = \(Self.memoryMapSize)") }
            db.add(function: EmbeddedRegexp.function(deadline: queryDeadline))
            queryDeadline?.install(on: db)
        }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            // A new wall is readable by its owner only: it holds password hashes. SQLite gives its
            // -wal and -shm files the same mode.
            let fd = open(file.path, O_CREAT | O_RDWR, 0o600)
            if fd >= 0 { close(fd) }
            database = try DatabaseQueue(path: file.path, configuration: config)
            try Self.migrate(database, lockFile: file.appendingPathExtension("lock"))
        } catch let error as AnywallError {
            throw error
        } catch {
            throw AnywallError.backendUnreachable("cannot open the wall at \(file.path): \(Self.reason(error))")
        }
    }

    /// Brings the schema up to date and puts a new wall in WAL mode. The first run is serialised
    /// with a lock file so that several processes opening a new wall at once do not race to create it.
    private static func migrate(_ database: DatabaseQueue, lockFile: URL) throws {
        // The check can fail while another process is creating the wall: then take the lock and see.
        if (try? database.read({ try EmbeddedSchema.migrator.hasCompletedMigrations($0) })) == true { return }
        let fd = open(lockFile.path, O_CREAT | O_RDWR, 0o644)
        if fd >= 0 { flock(fd, LOCK_EX) }
        defer { if fd >= 0 { flock(fd, LOCK_UN); close(fd) } }
        try database.writeWithoutTransaction { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw AnywallError.backendUnreachable("cannot put the wall at \(db.description) in WAL mode")
            }
        }
        try EmbeddedSchema.migrator.migrate(database)
    }

    /// The identity of the embedded wall kept in `file`, known without opening it.
    public static func identity(of file: URL) -> String {
        "embedded:\(file.path)"
    }

    // MARK: Accounts

    public func signUp(username: String, password: String, name: String?) throws -> Session {
        let account = try NewAccount(username: username, password: password, name: name)
        let username = account.username
        let hash = try hasher.hash(account.password)
        let now = clock.now()
        let user = User(objectId: RandomIdentifier.objectId(), username: username, name: account.name)
        return try write { db in
            if try Row.fetchOne(db, sql: "SELECT 1 FROM user WHERE username = ?", arguments: [username]) != nil {
                throw AnywallError.usernameTaken(username)
            }
            try db.execute(sql: "INSERT INTO user (objectId, username, name, passwordHash, createdAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [user.objectId, user.username, user.name, hash, Self.millis(now)])
            return try self.openSession(db, userId: db.lastInsertedRowID, user: user, now: now)
        }
    }

    public func logIn(username: String, password: String) throws -> Session {
        let username = try Username.validated(username)
        let row = try read { db in
            try Row.fetchOne(db, sql: "SELECT id, objectId, username, name, passwordHash FROM user WHERE username = ?",
                             arguments: [username])
        }
        guard let row else {
            _ = hasher.matchesNoAccount(password)
            throw Self.invalidLogin
        }
        guard let hash: String = row["passwordHash"] else {
            _ = hasher.matchesNoAccount(password)
            throw AnywallError.noPassword(username: row["username"])
        }
        guard try PasswordHasher.verify(password, against: hash) else { throw Self.invalidLogin }
        let user = User(objectId: row["objectId"], username: row["username"], name: row["name"])
        let id: Int64 = row["id"]
        return try write { db in try self.openSession(db, userId: id, user: user, now: self.clock.now()) }
    }

    public func logOut(_ session: Session) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM session WHERE tokenDigest = ?", arguments: [RandomIdentifier.tokenDigest(session.token)])
        }
    }

    public func currentUser(_ session: Session) throws -> User {
        try read { db in
            let (id, user) = try self.user(db, token: session.token)
            return user.with(logins: try Self.logins(db, userId: id))
        }
    }

    /// Sets the password of an existing user: for authors brought in by `import`, and for a
    /// forgotten password. Needs only write access to the wall's file, like `import`.
    public func setPassword(username: String, password: String) throws {
        let username = try Username.validated(username)
        let hash = try hasher.hash(try Password.validated(password))
        try write { db in
            try db.execute(sql: "UPDATE user SET passwordHash = ? WHERE username = ?", arguments: [hash, username])
            guard db.changesCount == 1 else { throw AnywallError.inputRejected("there is no user '\(username)' on this wall") }
            // A new password ends every open session of that user.
            try db.execute(sql: "DELETE FROM session WHERE userId = (SELECT id FROM user WHERE username = ?)", arguments: [username])
        }
    }

    /// Changes the account `objectId`: its username (unique ignoring case), its password (which
    /// ends every other session of the account, keeping the one of `token`), its name (`.some(nil)`
    /// removes it). `usernameTaken` when the new username is another account's, `notWritable`
    /// when no account has that id.
    public func updateAccount(objectId: String, username: String?, password: String?, name: String??, keepingSession token: String?) throws {
        let username = try username.map(Username.validated)
        let name = try name.map { try DisplayName.validated($0) }
        let hash = try password.map { try hasher.hash(try Password.validated($0)) }
        try write { db in
            try Self.requireAccount(db, objectId)
            if let username, try Row.fetchOne(db, sql: "SELECT 1 FROM user WHERE username = ? AND objectId <> ?", arguments: [username, objectId]) != nil {
                throw AnywallError.usernameTaken(username)
            }
            if let username { try db.execute(sql: "UPDATE user SET username = ? WHERE objectId = ?", arguments: [username, objectId]) }
            if let name { try db.execute(sql: "UPDATE user SET name = ? WHERE objectId = ?", arguments: [name, objectId]) }
            if let hash {
                try db.execute(sql: "UPDATE user SET passwordHash = ? WHERE objectId = ?", arguments: [hash, objectId])
                try db.execute(sql: "DELETE FROM session WHERE userId = (SELECT id FROM user WHERE objectId = ?) AND tokenDigest <> ?",
                               arguments: [objectId, token.map(RandomIdentifier.tokenDigest) ?? ""])
            }
        }
    }

    /// Deletes the account `objectId` and its sessions (`notWritable` when there is none). Its
    /// posts stay, without an author: nobody but the master key may change them, unless their ACL
    /// lets others.
    public func deleteAccount(objectId: String) throws {
        try write { db in
            try Self.requireAccount(db, objectId)
            try db.execute(sql: "UPDATE post SET userId = NULL WHERE userId = (SELECT id FROM user WHERE objectId = ?)", arguments: [objectId])
            try db.execute(sql: "DELETE FROM user WHERE objectId = ?", arguments: [objectId])
        }
    }

    /// Refuses a change to an account that does not exist, as to a post that does not.
    private static func requireAccount(_ db: Database, _ objectId: String) throws {
        guard try Row.fetchOne(db, sql: "SELECT 1 FROM user WHERE objectId = ?", arguments: [objectId]) != nil else {
            throw AnywallError.notWritable(objectId: objectId)
        }
    }

    // MARK: Posts

    /// The request id is not kept: a write to the local file either happens or fails, it is never lost on the way.
    public func createPost(text: String, at location: GeoPoint, session: Session, requestId: String) throws -> Post {
        try createStoredPost(PostDraft(text: text, location: location), by: .session(session.token), requestId: nil).post
    }

    public func nearby(_ query: WallQuery) throws -> [Post] {
        // The search opens its own read transaction with cached statements: GRDB's `read` would add
        // a savepoint and two `query_only` pragmas, as much again as the query in a city.
        try mapped { try database.inDatabase { db in try EmbeddedNearbySearch(db: db, reader: .user(nil), shape: .post, authors: authors, nodes: indexNodes).run(query) } }
    }

    // MARK: Config

    public func fetchConfig() throws -> RemoteConfig {
        // One statement: no transaction of GRDB's `read` (see `storedPost(objectId:)`).
        try mapped { try database.inDatabase { db in try self.config(db) } }
    }

    public func setConfig(_ key: String, to value: JSONValue, masterKey: String?) throws -> RemoteConfig {
        try RemoteConfig.validate(key: key, value: value)
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        return try write { db in
            try db.execute(sql: "INSERT INTO config (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key, json])
            return try self.config(db)
        }
    }

    public func unsetConfig(_ key: String, masterKey: String?) throws -> RemoteConfig {
        try write { db in
            try db.execute(sql: "DELETE FROM config WHERE key = ?", arguments: [key])
            return try self.config(db)
        }
    }

    public func initialize(masterKey: String?) throws -> RemoteConfig {
        let encoder = JSONEncoder()
        return try write { db in
            for (key, value) in RemoteConfig.defaults.params {
                try db.execute(sql: "INSERT OR IGNORE INTO config (key, value) VALUES (?, ?)",
                               arguments: [key, String(decoding: try encoder.encode(value), as: UTF8.self)])
            }
            return try self.config(db)
        }
    }

    /// The config, Anywall's defaults for what this wall has not set.
    func config(_ db: Database) throws -> RemoteConfig {
        RemoteConfig(setOnWall: try storedParams(db))
    }

    /// The config parameters as set on this wall: none on a new wall.
    func storedParams(_ db: Database) throws -> [String: JSONValue] {
        var texts: [String: String] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT key, value FROM config")) { texts[row[0]] = row[1] }
        return try decodedParams.params(from: texts)
    }

    // MARK: Helpers

    private static let invalidLogin = AnywallError.badCredentials

    func openSession(_ db: Database, userId: Int64, user: User, now: Date) throws -> Session {
        let token = RandomIdentifier.sessionToken()
        try db.execute(sql: "INSERT INTO session (tokenDigest, userId, createdAt) VALUES (?, ?, ?)",
                       arguments: [RandomIdentifier.tokenDigest(token), userId, Self.millis(now)])
        return Session(backend: identity, token: token, user: user)
    }

    /// The user a session token belongs to, with their row id; `sessionExpired` when the token is
    /// unknown or its session is older than the session length.
    func user(_ db: Database, token: String) throws -> (id: Int64, user: User) {
        let row = try sessionUserRow(db, token: token)
        return (row[0], User(objectId: row[1], username: row[2], name: row[3]))
    }

    /// The row (id, objectId, username, name, createdAt) of the user a session token belongs to,
    /// through a cached statement; `sessionExpired` as `user(_:token:)`.
    func sessionUserRow(_ db: Database, token: String) throws -> Row {
        let statement = try db.cachedStatement(sql: """
            SELECT user.id, user.objectId, user.username, user.name, user.createdAt FROM session JOIN user ON user.id = session.userId
            WHERE session.tokenDigest = ? AND session.createdAt >= ?
            """)
        guard let row = try Row.fetchOne(statement, arguments: [RandomIdentifier.tokenDigest(token), oldestSessionStart()]) else {
            throw AnywallError.sessionExpired
        }
        return row
    }

    /// When the oldest session still open began, in milliseconds since 1970.
    private func oldestSessionStart() -> Int64 {
        Self.millis(SessionLength(sessionLength).oldestOpenStart(at: clock.now()))
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    /// A read transaction; on a wall with a `queryTimeLimit`, stopped past it.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try limitingQueries { try mapped { try database.read(body) } }
    }

    /// Runs `body`, every read it makes on this wall (a nearest search too) under one deadline of
    /// the wall's `queryTimeLimit`, when it has one: a page and its count are one find.
    public func limitingQueries<T>(_ body: () throws -> T) throws -> T {
        guard let queryDeadline else { return try body() }
        return try queryDeadline.running(body)
    }

    /// A write transaction that takes the write lock at BEGIN, so concurrent writers wait for
    /// each other (busy timeout) instead of failing on a lock upgrade.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try mapped {
            try database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        }
    }

    /// Runs `body`, turning the database's own errors into `backendUnreachable`; the wall's
    /// answers (`AnywallError`) pass as they are, and a find stopped at the time limit is `QueryTimeLimit.Exceeded`.
    func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as AnywallError {
            throw error
        } catch let error as DatabaseError where queryDeadline != nil && QueryDeadline.stopped(error) {
            throw QueryTimeLimit.Exceeded(queryDeadline!.limit)
        } catch let error as DatabaseError where error.message == EmbeddedRegexp.tooCostly {
            throw AnywallError.inputRejected(EmbeddedRegexp.tooCostly)
        } catch {
            throw AnywallError.backendUnreachable("the wall at \(file.path) failed: \(Self.reason(error))")
        }
    }

    private static func reason(_ error: Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? "\(db.resultCode)" }
        return error.localizedDescription
    }
}
