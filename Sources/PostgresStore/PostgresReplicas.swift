import AnywallSupport
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// PostgreSQL streaming replicas that serve the wall's reads while the primary takes its writes.
///
/// Every half second each replica is asked how far it has replayed the primary's log; one that
/// is more than `maxLag` behind, or does not answer, is skipped until it is back within it.
/// A user reads their own writes: after a write, the session's reads go to a replica only once it
/// has replayed the primary's log up to that write, and to the primary until then. That is known
/// per server: with several servers behind a balancer, send a session to one server (nginx's
/// `hash $http_x_parse_session_token`) or a user may miss their own post for a moment.
final class PostgresReplicas: Sendable {
    /// How far behind the primary's log a replica may be and still serve reads.
    static let maxLag: UInt64 = 16 << 20
    /// How often the replicas are asked where they are.
    static let pollInterval = Duration.milliseconds(500)

    final class Replica: Sendable {
        let address: PostgresAddress
        let client: PostgresClient
        /// How far it had replayed at the last poll; nil when it lagged too far or did not answer.
        let replayed = Mutex<UInt64?>(nil)

        init(_ address: PostgresAddress, client: PostgresClient) {
            self.address = address
            self.client = client
        }

        /// Skipped until the next poll finds it well.
        func skip() {
            replayed.withLock { $0 = nil }
        }
    }

    let replicas: [Replica]
    /// For each session that wrote (by its token's digest), the primary's log position after it.
    private let writes = Mutex<[String: UInt64]>([:])
    private let next = Mutex(0)
    private static let rememberedWrites = 100_000

    /// Pools of at most `connections` to each replica, opened with the primary's `startup` parameters.
    init(_ addresses: [PostgresAddress], connections: Int, timeout: Duration, startup: [(String, String)], logger: Logger) {
        replicas = addresses.map { address in
            var configuration = PostgresClient.Configuration(host: address.host, port: address.port, username: address.username,
                                                             password: address.password, database: address.database, tls: .disable)
            configuration.options.maximumConnections = max(1, connections)
            configuration.options.connectTimeout = timeout
            configuration.options.additionalStartupParameters = startup
            return Replica(address, client: PostgresClient(configuration: configuration, backgroundLogger: logger))
        }
    }

    /// Runs the replicas' pools and polls them until cancelled.
    func run(primary: PostgresClient, logger: Logger) async {
        await withDiscardingTaskGroup { group in
            for replica in replicas { group.addTask { await replica.client.run() } }
            group.addTask {
                while !Task.isCancelled {
                    await self.poll(primary: primary, logger: logger)
                    guard (try? await Task.sleep(for: Self.pollInterval)) != nil else { return }
                }
            }
        }
    }

    private func poll(primary: PostgresClient, logger: Logger) async {
        guard let head = (try? await Self.position("SELECT pg_current_wal_lsn()::text", on: primary, logger: logger)) ?? nil else { return }
        for replica in replicas {
            let replayed = (try? await Self.position("SELECT pg_last_wal_replay_lsn()::text", on: replica.client, logger: logger)) ?? nil
            let lag = replayed.map { $0 >= head ? 0 : head - $0 } ?? .max
            replica.replayed.withLock { $0 = lag <= Self.maxLag ? replayed : nil }
        }
    }

    /// A replica that has replayed the last write of the session `token`, if one is well; the
    /// replicas take turns.
    func replica(for token: String?) -> Replica? {
        let needed = token.flatMap { token in writes.withLock { $0[RandomIdentifier.tokenDigest(token)] } } ?? 0
        let ready = replicas.filter { replica in replica.replayed.withLock { $0.map { $0 >= needed } ?? false } }
        guard !ready.isEmpty else { return nil }
        return ready[next.withLock { turn in
            turn = (turn + 1) % ready.count
            return turn
        }]
    }

    /// Notes that the session `token` just wrote: its reads stay on the primary until a replica
    /// has replayed this far.
    func noteWrite(by token: String, primary: PostgresClient, logger: Logger) async {
        guard let head = (try? await Self.position("SELECT pg_current_wal_lsn()::text", on: primary, logger: logger)) ?? nil else { return }
        let digest = RandomIdentifier.tokenDigest(token)
        writes.withLock {
            if $0.count >= Self.rememberedWrites { $0.removeAll() }
            $0[digest] = head
        }
    }

    /// A log position (`pg_lsn` as text, `X/Y` in hex) as one number.
    private static func position(_ sql: String, on client: PostgresClient, logger: Logger) async throws -> UInt64? {
        try await PostgresWall.within(.seconds(1), "asking where a database's log is") {
            var text: String?
            for try await value in try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String?.self) { text = value }
            guard let parts = text?.split(separator: "/"), parts.count == 2,
                  let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16), high <= UInt64(UInt32.max) else { return nil }
            return high << 32 | low
        }
    }
}
