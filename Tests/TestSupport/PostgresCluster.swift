import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throw-away PostgreSQL 15 cluster with PostGIS, made for one test in a temporary folder and
/// listening on a free loopback port; `stop()` ends it and removes its files. As root it runs as
/// the `postgres` user (initdb and postgres refuse root), otherwise as whoever runs the tests.
package final class PostgresCluster: @unchecked Sendable {
    /// Debian's PostgreSQL 15 programs.
    package static let programs = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")
    /// The database each cluster is made with, PostGIS enabled in it.
    package static let database = "anywall"

    package let folder: URL
    /// The server's log.
    package var logFile: URL { folder.appendingPathComponent("log") }
    package let port: Int
    private var running = false

    /// The URI anywall-server takes for this cluster's database.
    package var uri: String { "postgres://postgres@127.0.0.1:\(port)/\(Self.database)" }

    /// Makes a new cluster, starts it and creates the `anywall` database with PostGIS.
    package init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-pg-\(UUID().uuidString)")
        port = try Loopback.freePort()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.giveToPostgres(folder)
        try Self.run("initdb", ["-D", data.path, "--auth=trust", "--username=postgres", "--encoding=UTF8", "--no-sync"])
        try configure()
        try start()
        try Self.run("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", Self.database])
        try sql("CREATE EXTENSION postgis")
    }

    /// A cluster on `port` whose files are already in `folder` (a standby made by `standby()`).
    private init(folder: URL, port: Int) {
        self.folder = folder
        self.port = port
    }

    deinit { stop() }

    private var data: URL { folder.appendingPathComponent("data") }

    /// Starts the cluster (again, after `stopServer()`).
    package func start() throws {
        try Self.run("pg_ctl", ["-D", data.path, "-l", logFile.path, "-w", "-t", "60", "start"])
        running = true
    }

    /// Stops the server, keeping its files, as an outage would.
    package func stopServer() throws {
        guard running else { return }
        try Self.run("pg_ctl", ["-D", data.path, "-m", "fast", "-w", "stop"])
        running = false
    }

    /// Stops the server and removes the cluster.
    package func stop() {
        try? stopServer()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `statement` with psql in `database` (the `anywall` one unless named); its output,
    /// unaligned and without headers.
    @discardableResult
    package func sql(_ statement: String, database: String = PostgresCluster.database) throws -> String {
        try Self.run("psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", database,
                              "-v", "ON_ERROR_STOP=1", "-At", "-c", statement])
    }

    /// A streaming standby of this cluster on a port of its own, made with `pg_basebackup -R`
    /// and started with `settings` (lines of postgresql.conf) added: it follows every write to
    /// this one and serves reads only.
    package func standby(settings: [String] = []) throws -> PostgresCluster {
        let standbyFolder = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: standbyFolder, withIntermediateDirectories: true)
        try Self.giveToPostgres(standbyFolder)
        let standby = PostgresCluster(folder: standbyFolder, port: try Loopback.freePort())
        try Self.run("pg_basebackup", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-D", standby.data.path,
                                       "-R", "-X", "stream", "--checkpoint=fast", "--no-sync"])
        try standby.configure(settings)
        try standby.start()
        return standby
    }

    /// Loopback only, on the cluster's port, sockets in its folder; replication allowed from loopback.
    private func configure(_ extra: [String] = []) throws {
        let settings = """

            port = \(port)
            listen_addresses = '127.0.0.1'
            unix_socket_directories = '\(folder.path)'
            fsync = off
            max_connections = 200
            wal_level = replica
            max_wal_senders = 4
            hot_standby = on

            """ + extra.joined(separator: "\n") + "\n"
        let conf = data.appendingPathComponent("postgresql.conf")
        let handle = try FileHandle(forWritingTo: conf)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(settings.utf8))
        try handle.close()
        let hba = data.appendingPathComponent("pg_hba.conf")
        let rules = try String(contentsOf: hba, encoding: .utf8)
        if !rules.contains("host replication all 127.0.0.1/32 trust") {
            try (rules + "\nhost replication all 127.0.0.1/32 trust\n").write(to: hba, atomically: false, encoding: .utf8)
        }
    }

    private static var asRoot: Bool { getuid() == 0 }

    private static func giveToPostgres(_ folder: URL) throws {
        guard asRoot else { return }
        guard let user = getpwnam("postgres") else { throw HelperFailure(description: "there is no postgres user (apt install postgresql)") }
        guard chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
            throw HelperFailure(description: "cannot give \(folder.path) to postgres")
        }
    }

    /// Runs one of PostgreSQL's programs (as `postgres` when root); its stdout, or a failure with its stderr.
    /// Spawned and reaped here rather than with Foundation's `Process`, whose wait missed the exit
    /// of `pg_ctl start` (its server lives on, a child of init) and hung.
    @discardableResult
    private static func run(_ program: String, _ arguments: [String]) throws -> String {
        let path = programs.appendingPathComponent(program).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HelperFailure(description: "\(path) is missing (apt install postgresql postgresql-15-postgis-3)")
        }
        let command = asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--", path] + arguments : [path] + arguments
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-pg-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out").path, err = scratch.appendingPathComponent("err").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw HelperFailure(description: "cannot run \(command[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        // Exited normally with 0: WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let reason = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            throw HelperFailure(description: "\(program) failed (status \(status)): \(reason)\(output)")
        }
        return output
    }
}
