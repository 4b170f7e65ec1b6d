import AnywallServer
import AnywallSupport
import ArgumentParser
import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import PostgresStore
import WallDomain

/// `anywall-server [serve]`: a wall served over Parse's REST API, so a group shares one wall.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve an anywall wall over the Parse REST API, for a group to share (the default).",
        discussion: """
            Keys come from the environment, as Parse Server takes them: PARSE_SERVER_APPLICATION_ID and \
            PARSE_SERVER_MASTER_KEY (required), PARSE_SERVER_REST_API_KEY (optional), each also from the \
            file named by the same variable with _FILE appended. The master key is accepted from \
            --master-key-ips only (Parse Server's masterKeyIps, also from PARSE_SERVER_MASTER_KEY_IPS). \
            Clients use the URL \
            http://HOST:PORT/MOUNT with the application id (and REST key). One JSON line per request \
            and per event goes to stderr. SIGTERM or SIGINT stops it after the requests in flight. \
            The wall is a SQLite file (--store, or --database with a path) or a PostgreSQL database \
            with PostGIS (--database postgres://USER@HOST[:PORT]/DATABASE, also from \
            PARSE_SERVER_DATABASE_URI; its password from PGPASSWORD), which any number of servers may share. \
            Exit status: 0 stopped, 64 usage, 69 the wall cannot be opened or the database reached, \
            71 the address cannot be bound, 72 the database lacks PostGIS, 77 the database refused \
            the user or password, 78 a key is missing.
            """
    )

    @Option(help: ArgumentHelp("The wall's SQLite file (created when missing).", valueName: "path"))
    var store: String?

    @Option(help: ArgumentHelp("The wall's database: a postgres:// URI (PostgreSQL with PostGIS; the password from PGPASSWORD) "
                               + "or a SQLite file (default: PARSE_SERVER_DATABASE_URI).", valueName: "uri"))
    var database: String?

    @Option(name: .customLong("database-replica"),
            help: ArgumentHelp("A streaming replica of the --database to read from (repeatable): reads go to one that keeps up, "
                               + "writes to the primary, and a session reads its own writes.", valueName: "uri"))
    var databaseReplicas: [String] = []

    @Option(help: ArgumentHelp("The address to listen on; another than loopback exposes the wall to the network.", valueName: "address"))
    var bind = "127.0.0.1"

    @Option(help: ArgumentHelp("The TCP port (0: any free port, named in the 'listening' log line).", valueName: "port"))
    var port = 1337

    @Option(help: ArgumentHelp("The path the API is served under.", valueName: "path"))
    var mount = "/parse"

    @Option(help: ArgumentHelp("How long a session lasts from its log-in, in seconds (Parse Server's sessionLength; default a year).",
                               valueName: "seconds"))
    var sessionLength = 31_536_000

    @Option(help: ArgumentHelp("Addresses and networks the master key is accepted from, comma-separated "
                               + "(default: PARSE_SERVER_MASTER_KEY_IPS, else 127.0.0.1,::1; 0.0.0.0/0,::/0 allows any).",
                               valueName: "list"))
    var masterKeyIps: String?

    @Option(help: ArgumentHelp("Close a connection idle, or still sending its headers, for this many seconds; a request body must arrive within it too (else 408).", valueName: "seconds"))
    var idleTimeout = 30

    @Option(help: ArgumentHelp("Stop a find still running after this many seconds (1 to 600), answered with Parse's 124 "
                               + "(on PostgreSQL: any statement, by its statement_timeout).",
                               valueName: "seconds"))
    var queryTimeout = Int(QueryTimeLimit.serverDefault.duration.components.seconds)

    @Option(help: ArgumentHelp("The most connections open at once; more wait to be accepted.", valueName: "count"))
    var maxConnections = 4096

    @Option(help: ArgumentHelp("The most connections open at once from one address (a --trusted-proxy excepted); more are closed.",
                               valueName: "count"))
    var maxConnectionsPerAddress = 64

    @Option(help: ArgumentHelp("Proxies in front of the server (addresses and networks, comma-separated) whose X-Forwarded-For "
                               + "or Forwarded header names the client: its address then counts for the log, the limits and "
                               + "--master-key-ips. A request naming a client from any other address may not use the master key.",
                               valueName: "addresses"))
    var trustedProxy: String?

    @Option(help: ArgumentHelp("The fewest characters a new password may have (sign-up, a password change).", valueName: "count"))
    var minPasswordLength = 8

    @Option(help: ArgumentHelp("Sign-up and log-in attempts an address may make at once, and per minute after that "
                               + "(a username also waits, longer each time, after 5 failed log-ins).", valueName: "count"))
    var passwordAttempts = 20

    @Option(help: ArgumentHelp("The web origin whose pages' scripts may call the API (CORS), as a browser sends it "
                               + "(https://wall.example: lowercase, no path, no default port); * for any (Parse Server's default).",
                               valueName: "origin"))
    var allowOrigin = CrossOrigin.anyOrigin

    @Flag(help: "Take every request as new, as Parse Server does without idempotency: a retried post may be stored twice.")
    var noRequestIds = false

    @Option(help: ArgumentHelp("How long LiveQuery's change log keeps a write, in seconds: a client resuming from an older one "
                               + "(since) is told to read the wall again.", valueName: "seconds"))
    var liveQueryRetention = 86400

    @Option(help: ArgumentHelp("The bytes of LiveQuery events one client may have waiting; a client that reads slower is closed "
                               + "and told the seq to resume from.", valueName: "bytes"))
    var liveQueryQueueLimit = 4 << 20

    @Option(help: ArgumentHelp("The Facebook apps whose users may log in with Facebook (authData.facebook), comma-separated; "
                               + "without it every Facebook log-in is refused.", valueName: "ids"))
    var facebookAppIds: String?

    @Option(help: ArgumentHelp("A file holding the Facebook app's secret, which signs each Graph API call (appsecret_proof); "
                               + "else \(ServeCommand.facebookSecretName) (or \(ServeCommand.facebookSecretName)_FILE).", valueName: "path"))
    var facebookAppSecretFile: String?

    @Option(help: ArgumentHelp("The Graph API that checks Facebook tokens.", valueName: "url"))
    var facebookGraphUrl = FacebookAuth.defaultGraphURL

    private static let facebookSecretName = "PARSE_SERVER_FACEBOOK_APP_SECRET"

    func validate() throws {
        _ = try wallLocation(ProcessInfo.processInfo.environment)
        guard (1...1_000_000).contains(passwordAttempts) else { throw ValidationError("--password-attempts must be from 1 to 1000000") }
        guard (1...86400).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be from 1 to 86400 seconds") }
        // At most ten minutes: on PostgreSQL a read waits that long (and 2 s) before a lost database is called lost.
        guard (1...600).contains(queryTimeout) else { throw ValidationError("--query-timeout must be from 1 to 600 seconds") }
        guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be from 1 to 1000000") }
        guard (1...1_000_000).contains(maxConnectionsPerAddress) else {
            throw ValidationError("--max-connections-per-address must be from 1 to 1000000")
        }
        guard (1...1024).contains(minPasswordLength) else { throw ValidationError("--min-password-length must be from 1 to 1024") }
        _ = try trustedProxies()
        _ = try masterKeyAddresses(ProcessInfo.processInfo.environment)
        guard (1...3_153_600_000).contains(sessionLength) else { throw ValidationError("--session-length must be from 1 second to 100 years") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard (1...31_536_000).contains(liveQueryRetention) else { throw ValidationError("--live-query-retention must be from 1 second to a year") }
        guard (1024...(1 << 30)).contains(liveQueryQueueLimit) else {
            throw ValidationError("--live-query-queue-limit must be from 1024 bytes to 1 GiB")
        }
        guard mount.hasPrefix("/"), !mount.contains("?"), !mount.contains(":") else {
            throw ValidationError("--mount must be a path such as /parse")
        }
        guard let graph = URL(string: facebookGraphUrl), ["http", "https"].contains(graph.scheme), graph.host != nil, graph.query == nil else {
            throw ValidationError("--facebook-graph-url must be an http:// or https:// URL without a query")
        }
        _ = try facebookAppIdList()
    }

    /// The app ids of `--facebook-app-ids`: none unless given.
    private func facebookAppIdList() throws -> Set<String> {
        guard let facebookAppIds else { return [] }
        let ids = facebookAppIds.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !ids.isEmpty, ids.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber } }) else {
            throw ValidationError("--facebook-app-ids must be app ids separated by commas, such as 1234567890")
        }
        return Set(ids)
    }

    /// Facebook's check as the options and the environment set it up; the secret from
    /// `--facebook-app-secret-file`, else the environment (never from an argument: argv is visible to every user).
    private func authProviders(_ environment: [String: String]) throws -> AuthProviders {
        var secret: String?
        if let facebookAppSecretFile {
            guard let text = try? String(contentsOfFile: facebookAppSecretFile, encoding: .utf8),
                  !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ServerFailure.configuration("cannot read the Facebook app secret from --facebook-app-secret-file (\(facebookAppSecretFile)), or it is empty")
            }
            secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            secret = try ServerKeys.key(Self.facebookSecretName, environment)
        }
        return AuthProviders(facebook: FacebookAuth(appIds: try facebookAppIdList(), appSecret: secret, graphURL: facebookGraphUrl))
    }

    func run() async throws {
        // Every request's task then runs on the event loop that reads its connection, instead of
        // hopping to one of Swift concurrency's threads and back (two thread switches a request).
        // Work that blocks still goes to Dispatch's threads (`SQLiteWallStore`); a bounded read
        // runs in place. Before anything else: the hook takes the jobs enqueued after it. It cannot
        // be installed when the Swift runtime is linked in statically (its hook is not exported).
        let onEventLoops = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        do {
            try await serve(onEventLoops: onEventLoops)
        } catch let failure as ServerFailure {
            ServerLog.event("failed", ["error": .string(failure.description)])
            throw ExitCode(failure.exitStatus)
        }
    }

    private static let databaseURIName = "PARSE_SERVER_DATABASE_URI"

    /// Where the wall is: `--store`, else `--database`, else the environment's database URI.
    private func wallLocation(_ environment: [String: String]) throws -> WallLocation {
        if store != nil, database != nil { throw ValidationError("give --store or --database, not both") }
        guard let given = store ?? database ?? environment[Self.databaseURIName], !given.isEmpty else {
            throw ValidationError("--database (or --store, or \(Self.databaseURIName)) is required: a postgres:// URI or a SQLite file")
        }
        do throws(PostgresWallError) {
            let location = store != nil ? .file(URL(fileURLWithPath: given)) : try WallLocation(given)
            return try location.reading(from: databaseReplicas)
        } catch {
            throw ValidationError(error.reason)
        }
    }

    /// The master key's addresses from `--master-key-ips`, else the environment, else loopback.
    private func masterKeyAddresses(_ environment: [String: String]) throws -> AddressList {
        guard let list = masterKeyIps ?? environment[Self.masterKeyIpsName] else { return .loopback }
        do {
            return try AddressList(parsing: list)
        } catch {
            throw ValidationError("--master-key-ips (or \(Self.masterKeyIpsName)): '\(error.entry)' is not an address or network")
        }
    }

    private static let masterKeyIpsName = "PARSE_SERVER_MASTER_KEY_IPS"

    /// The proxies from `--trusted-proxy`: none unless given.
    private func trustedProxies() throws -> AddressList {
        guard let trustedProxy else { return .none }
        do {
            return try AddressList(parsing: trustedProxy)
        } catch {
            throw ValidationError("--trusted-proxy: '\(error.entry)' is not an address or network")
        }
    }

    private func serve(onEventLoops: Bool) async throws {
        MemoryTrim.configureForServer()
        let environment = ProcessInfo.processInfo.environment
        let keys = try ServerKeys.from(environment)
        var passwords = PasswordLimits()
        passwords.attemptsPerAddress = passwordAttempts
        passwords.refillInterval = .seconds(60) / passwordAttempts
        passwords.minimumPasswordLength = minPasswordLength
        // A body must arrive within the same time a connection may stay idle.
        let limits = ClientLimits(idleTimeout: .seconds(idleTimeout), bodyTimeout: .seconds(idleTimeout), maxConnections: maxConnections,
                                  maxConnectionsPerAddress: maxConnectionsPerAddress, passwords: passwords).fittedToDescriptorLimit()
        let location = try wallLocation(environment)
        let wall = try await ServerApplication.openWall(location, sessionLength: .seconds(sessionLength),
                                                        queryTimeLimit: QueryTimeLimit(.seconds(queryTimeout)))
        let mountPath = ServerApplication.mountPrefix(mount)
        let address = bind
        var liveOptions = LiveQueryHub.Options()
        liveOptions.retention = .seconds(liveQueryRetention)
        liveOptions.queueLimit = liveQueryQueueLimit
        let live = LiveQueryHub(wall: wall, keys: keys, masterKeyAddresses: try masterKeyAddresses(environment), options: liveOptions)
        let app = ServerApplication.build(wall: wall, keys: keys, mount: mount, host: bind, port: port,
                                          masterKeyAddresses: try masterKeyAddresses(environment), limits: limits,
                                          keepsRequestIds: !noRequestIds, crossOrigin: allowOrigin,
                                          trustedProxies: try trustedProxies(), authProviders: try authProviders(environment),
                                          live: live) { port in
            ServerLog.event("listening", ["address": .string(address), "port": .number(Double(port)),
                                          "mount": .string(mountPath.isEmpty ? "/" : mountPath), "store": .string(location.description),
                                          "requestsRunOn": .string(onEventLoops ? "event loops" : "Swift concurrency's threads")])
        }
        let feed = Task { await live.run() }
        defer { feed.cancel() }
        let pruning = Task { await ServerApplication.pruneRequestIds(of: wall) }
        defer { pruning.cancel() }
        let trimming = Task { await ServerApplication.trimMemory() }
        defer { trimming.cancel() }
        do {
            try await app.runService()
        } catch {
            throw ServerFailure.listen("cannot serve on \(bind):\(port): \(error)")
        }
        ServerLog.event("stopped")
    }
}

extension CrossOrigin: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
