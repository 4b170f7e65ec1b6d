import AnywallCore
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore

/// `anywall-server`: the embedded wall served over Parse's REST API, so a group shares one wall.
@main
struct AnywallServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anywall-server",
        abstract: "Serve an anywall wall over the Parse REST API, for a group to share.",
        discussion: """
            Keys come from the environment, as Parse Server takes them: PARSE_SERVER_APPLICATION_ID and \
            PARSE_SERVER_MASTER_KEY (required), PARSE_SERVER_REST_API_KEY (optional), each also from the \
            file named by the same variable with _FILE appended. Clients use the URL \
            http://HOST:PORT/MOUNT with the application id (and REST key). One JSON line per request \
            and per event goes to stderr. SIGTERM or SIGINT stops it after the requests in flight. \
            Exit status: 0 stopped, 64 usage, 69 the wall cannot be opened, 71 the address cannot be \
            bound, 78 a key is missing.
            """,
        version: AnywallVersion.current
    )

    @Option(help: ArgumentHelp("The wall's SQLite file (created when missing).", valueName: "path"))
    var store: String

    @Option(help: ArgumentHelp("The address to listen on; another than loopback exposes the wall to the network.", valueName: "address"))
    var bind = "127.0.0.1"

    @Option(help: ArgumentHelp("The TCP port (0: any free port, named in the 'listening' log line).", valueName: "port"))
    var port = 1337

    @Option(help: ArgumentHelp("The path the API is served under.", valueName: "path"))
    var mount = "/parse"

    /// Request ids are kept this long: an outbox retry within it is never posted twice.
    static let requestIdLifetime: TimeInterval = 30 * 24 * 3600

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard mount.hasPrefix("/"), !mount.contains("?"), !mount.contains(":") else {
            throw ValidationError("--mount must be a path such as /parse")
        }
    }

    func run() async throws {
        do {
            try await serve()
        } catch let failure as ServerFailure {
            ServerLog.event("failed", ["error": .string(failure.description)])
            throw failure.exitCode
        }
    }

    private func serve() async throws {
        let keys = try ServerKeys.from(ProcessInfo.processInfo.environment)
        let file = URL(fileURLWithPath: store)
        let wall: SharedWall
        do {
            let embedded = try EmbeddedWall(file: file)
            try embedded.forgetRequestIds(before: Date().addingTimeInterval(-Self.requestIdLifetime))
            wall = SharedWall(embedded)
        } catch let error as AnywallError {
            throw ServerFailure.wall(error.message)
        }
        let mountPath = mount == "/" ? "" : String(mount.reversed().drop { $0 == "/" }.reversed())
        let router = Router(context: ParseContext.self)
        router.add(middleware: AccessLog())
        router.get("\(mountPath)/health") { _, _ in ParseAnswer.json(["status": .string("ok")]) }
        let api = router.group(RouterPath(mountPath.isEmpty ? "/" : mountPath))
            .add(middleware: ParseErrors())
            .add(middleware: KeyCheck(keys: keys))
        UserRoutes(wall: wall, mount: mountPath).register(on: api)
        PostRoutes(wall: wall, mount: mountPath).register(on: api)
        ConfigRoutes(wall: wall).register(on: api)
        SchemaRoutes().register(on: api)

        let address = bind
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(bind, port: port), serverName: "anywall-server"),
            onServerRunning: { channel in
                ServerLog.event("listening", ["address": .string(address),
                                              "port": .number(Double(channel.localAddress?.port ?? 0)),
                                              "mount": .string(mountPath.isEmpty ? "/" : mountPath), "store": .string(file.path)])
            },
            // The access log and events above are the server's log; Hummingbird's own lines would mix text into it.
            logger: Logger(label: "anywall-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        do {
            try await app.runService()
        } catch {
            throw ServerFailure.listen("cannot serve on \(bind):\(port): \(error)")
        }
        ServerLog.event("stopped")
    }
}
