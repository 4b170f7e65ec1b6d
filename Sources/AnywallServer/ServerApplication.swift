import AnywallSupport
import EmbeddedStore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import PostgresStore
import WallDomain

/// anywall-server's application: the wall served over Parse's REST API. The executable and the
/// in-process tests build it with the same function.
package enum ServerApplication {
    /// Request ids are kept this long: an outbox retry within it is never posted twice.
    static let requestIdLifetime: TimeInterval = 30 * 24 * 3600

    /// Opens the wall at `location` for serving, forgetting request ids older than their lifetime.
    /// Each find stops at `queryTimeLimit` (on PostgreSQL, each statement).
    package static func openWall(_ location: WallLocation, sessionLength: Duration = EmbeddedWall.defaultSessionLength,
                                 queryTimeLimit: QueryTimeLimit = .serverDefault) async throws(ServerFailure) -> any WallStore {
        switch location {
        case .file(let file):
            return try openWall(file, sessionLength: sessionLength, queryTimeLimit: queryTimeLimit)
        case .postgres(let address, let replicas):
            let wall: PostgresWall
            do {
                wall = try await PostgresWall(address, replicas: replicas, sessionLength: sessionLength, queryTimeLimit: queryTimeLimit)
            } catch {
                throw ServerFailure(error)
            }
            do {
                try await forgetExpiredRequestIds(of: wall)
            } catch {
                throw .wall((error as? AnywallError)?.reason ?? "\(error)")
            }
            return wall
        }
    }

    /// Opens the wall in `file` for serving, forgetting request ids older than their lifetime, with
    /// a query connection per core beside the main one, each reading the file memory-mapped and
    /// stopping a find at `queryTimeLimit`.
    package static func openWall(_ file: URL, sessionLength: Duration = EmbeddedWall.defaultSessionLength,
                                 queryTimeLimit: QueryTimeLimit = .serverDefault) throws(ServerFailure) -> SQLiteWallStore {
        do {
            let embedded = try EmbeddedWall(file: file, sessionLength: sessionLength, memoryMapped: true)
            try embedded.forgetRequestIds(before: Date().addingTimeInterval(-requestIdLifetime))
            let readers = try (0..<max(2, ProcessInfo.processInfo.activeProcessorCount)).map { _ in
                try EmbeddedWall(file: file, sessionLength: sessionLength, memoryMapped: true, queryTimeLimit: queryTimeLimit)
            }
            return SQLiteWallStore(embedded, readers: readers)
        } catch {
            throw .wall((error as? AnywallError)?.reason ?? "\(error)")
        }
    }

    /// Forgets request ids older than their lifetime every `interval` while the server runs, so
    /// the table stays the size of a month of writes however long the server stays up.
    package static func pruneRequestIds(of wall: any WallStore, every interval: Duration = .seconds(3600)) async {
        while !Task.isCancelled {
            // Cancelled (the server stopping): no last pass.
            guard (try? await Task.sleep(for: interval)) != nil else { return }
            do {
                try await forgetExpiredRequestIds(of: wall)
            } catch {
                ServerLog.event("error", ["error": .string("pruning request ids: \(error)")])
            }
        }
    }

    /// Gives the memory large answers took back to the system every `interval`, after any (`MemoryTrim`).
    package static func trimMemory(every interval: Duration = .seconds(2)) async {
        while (try? await Task.sleep(for: interval)) != nil {
            MemoryTrim.trimIfNoted()
        }
    }

    /// One pass of the pruning: request ids older than their lifetime are forgotten.
    package static func forgetExpiredRequestIds(of wall: any WallStore) async throws {
        let before = Date().addingTimeInterval(-requestIdLifetime)
        try await wall.forgetRequestIds(before: before)
    }

    /// The routes: `/health` and the API's OpenAPI document beside the mount, and under it Parse's API, behind the key check
    /// and with every error answered in Parse's form. A JavaScript SDK request (its method and keys in a POST body) is
    /// taken as the request it stands for. `mount` is a path such as `/parse` (or `/`);
    /// the master key is accepted from `masterKeyAddresses` only; `limits` bound what one client may take;
    /// `keepsRequestIds` false takes every request as new, as Parse Server without idempotency;
    /// `crossOrigin` says which web pages' scripts may call it; `trustedProxies` may name the
    /// clients they forward (`ClientAddress`).
    package static func router(wall: any WallStore, keys: ServerKeys, mount: String,
                               masterKeyAddresses: AddressList = .loopback, limits: ClientLimits = ClientLimits(),
                               keepsRequestIds: Bool = true, crossOrigin: CrossOrigin = .anyOrigin,
                               trustedProxies: AddressList = .none, authProviders: AuthProviders = AuthProviders(),
                               live: LiveQueryHub? = nil) -> Router<ParseContext> {
        let mountPath = mountPrefix(mount)
        let router = Router(context: ParseContext.self)
        let dispatch = RouterDispatch()
        router.add(middleware: ClientAddress(trustedProxies: trustedProxies))
        router.add(middleware: AccessLog())
        if let live { router.add(middleware: LiveWriteSignal(hub: live)) }
        router.add(middleware: crossOrigin.middleware())
        router.add(middleware: BodyDeadline(timeout: limits.bodyTimeout))
        router.add(middleware: MethodOverride(keys: keys, dispatch: dispatch))
        router.get("\(mountPath)/health") { _, _ in ParseAnswer.json(["status": .string("ok")]) }
        router.get("\(mountPath)/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
        let api = router.group(RouterPath(mountPath.isEmpty ? "/" : mountPath))
            .add(middleware: ParseErrors())
            .add(middleware: KeyCheck(keys: keys, masterKeyAddresses: masterKeyAddresses, wall: wall, loginPath: "\(mountPath)/login"))
        UserRoutes(wall: wall, mount: mountPath, gate: PasswordGate(limits: limits.passwords),
                   minimumPasswordLength: limits.passwords.minimumPasswordLength, authProviders: authProviders).register(on: api)
        PostRoutes(wall: wall, mount: mountPath, keepsRequestIds: keepsRequestIds).register(on: api)
        ActivityRoutes(wall: wall, mount: mountPath).register(on: api)
        RoleRoutes(wall: wall, mount: mountPath).register(on: api)
        ConfigRoutes(wall: wall).register(on: api)
        SchemaRoutes(wall: wall).register(on: api)
        SessionRoutes(wall: wall).register(on: api)
        PasswordResetRoutes().register(on: api)
        ServerInfoRoutes().register(on: api)
        BatchRoutes(mount: mountPath, dispatch: dispatch).register(on: api)
        dispatch.use(router.buildResponder())
        return router
    }

    /// The application listening on `host`:`port`, with LiveQuery (`live`) on the same port: a
    /// WebSocket upgrade on the mount path or `/`, as Parse Server attaches it to its HTTP server.
    /// `onListening` hears the port it got (for port 0).
    package static func build(wall: any WallStore, keys: ServerKeys, mount: String, host: String, port: Int,
                              masterKeyAddresses: AddressList = .loopback, limits: ClientLimits = ClientLimits(),
                              keepsRequestIds: Bool = true, crossOrigin: CrossOrigin = .anyOrigin, trustedProxies: AddressList = .none,
                              authProviders: AuthProviders = AuthProviders(), live: LiveQueryHub,
                              onListening: @escaping @Sendable (Int) -> Void = { _ in }) -> some ApplicationProtocol {
        let perAddress = ConnectionsPerAddress(limit: limits.maxConnectionsPerAddress, trustedProxies: trustedProxies)
        let livePaths: Set<String> = [mountPrefix(mount), mountPrefix(mount) + "/", "/"]
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [RequestArrivalSignal()], idleTimeout: TimeAmount(limits.idleTimeout))
        // A client that stops answering pings is closed: no socket outlives its client for long.
        let webSocket = WebSocketServerConfiguration(maxFrameSize: LiveQueryConnection.maxMessageSize, autoPing: .enabled(timePeriod: .seconds(15)))
        let server = HTTPServerBuilder { responder in
            let upgrading = HTTP1WebSocketUpgradeChannel(responder: responder, configuration: .init(http1: http1, ws: webSocket)) { request, channel, _ in
                guard livePaths.contains(String(request.path?.prefix { $0 != "?" } ?? "")) else { return .dontUpgrade }
                channel.triggerUserOutboundEvent(ConnectionGuard.Arrival.socket, promise: nil)
                let client = LiveClient(queueLimit: live.clientQueueLimit, address: channel.remoteAddress?.ipAddress)
                return .upgrade([:]) { inbound, outbound, _ in
                    await LiveQueryConnection.serve(inbound, outbound, client: client, hub: live)
                }
            }
            return GuardedChildChannel(inner: upgrading, counts: perAddress, headTimeout: TimeAmount(limits.idleTimeout))
        }
        return Application(
            router: router(wall: wall, keys: keys, mount: mount, masterKeyAddresses: masterKeyAddresses, limits: limits,
                           keepsRequestIds: keepsRequestIds, crossOrigin: crossOrigin, trustedProxies: trustedProxies,
                           authProviders: authProviders, live: live),
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "anywall-server", backlog: limits.listenBacklog,
                                 availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections)),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            // The access log and events are the server's log; Hummingbird's own lines would mix text into it.
            logger: Logger(label: "anywall-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }

    /// The mount as a route prefix: no trailing slash, and empty for `/`.
    package static func mountPrefix(_ mount: String) -> String {
        mount == "/" ? "" : String(mount.reversed().drop { $0 == "/" }.reversed())
    }
}
