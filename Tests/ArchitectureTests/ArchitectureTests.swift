import Foundation
import Testing

/// The dependency graph SwiftPM builds is the architecture (docs/architecture.md): these tests read
/// it from `swift package describe` and fail the suite when a target depends on one its layer may
/// not use, directly or through another target.
@Suite("The architecture is the targets' dependency graph")
struct ArchitectureTests {
    @Test("every target depends only on what its layer may use")
    func allowedDependencies() throws {
        let graph = try DependencyGraph.describe()
        #expect(Architecture.violations(in: graph) == [])
    }

    @Test("the checker catches a forbidden edge (domain on GRDB, core on ArgumentParser, CLI on the server, server on the CLI)",
          arguments: [("WallDomain", "GRDB"), ("WallDomain", "EmbeddedStore"), ("LocalState", "ArgumentParser"),
                      ("AnywallCLI", "AnywallServer"), ("AnywallServer", "AnywallCLI"), ("AnywallServer", "ParseClient"),
                      ("LiveQueryClient", "Hummingbird"), ("LiveQueryClient", "ParseClient")])
    func forbiddenEdgeIsCaught(target: String, dependency: String) throws {
        var graph = try DependencyGraph.describe()
        graph.edges[target, default: []].insert(dependency)
        #expect(Architecture.violations(in: graph).contains { $0.hasPrefix("\(target) -> \(dependency)") })
    }

    @Test("reached through another target, a forbidden library is caught too")
    func transitiveEdgeIsCaught() throws {
        var graph = try DependencyGraph.describe()
        // A harmless-looking edge that would bring Hummingbird into the CLI.
        graph.edges["ParseWire", default: []].insert("AnywallServer")
        let found = Architecture.violations(in: graph)
        #expect(found.contains { $0.hasPrefix("ParseWire -> AnywallServer") })
        #expect(found.contains { $0.hasPrefix("AnywallCLI reaches Hummingbird") })
    }

    @Test("every target is placed in the architecture, so a new one cannot slip past the rules")
    func everyTargetIsPlaced() throws {
        let graph = try DependencyGraph.describe()
        let unplaced = graph.targets.subtracting(Architecture.allowed.keys).filter { !$0.hasSuffix("Tests") }
        #expect(unplaced.isEmpty, "add these to Architecture.allowed: \(unplaced.sorted())")
    }
}

/// The rules: what each target may depend on (targets and products), and what each must never
/// reach, however indirectly.
enum Architecture {
    private static let crypto: Set = ["Crypto", "_CryptoExtras"]
    private static let core: Set = ["WallDomain", "AnywallSupport", "WallLocation", "ParseWire", "LocalState", "EmbeddedStore", "ParseClient"]

    /// Direct dependencies allowed, per target. The domain may use geometry (GEOS) and nothing that
    /// stores, sends, reads files or parses arguments.
    static let allowed: [String: Set<String>] = [
        "CCurl": [], "CGEOS": [], "CSimdjson": [], "CSQLite": [],
        "WallDomain": ["CGEOS"],
        "WallStorage": ["WallDomain"],
        "AnywallSupport": Set(["WallDomain"]).union(crypto),
        "WallLocation": ["WallDomain", "AnywallSupport"],
        "ParseWire": ["WallDomain"],
        "LocalState": ["WallDomain", "AnywallSupport", "WallLocation", "ParseWire"],
        "EmbeddedStore": ["WallDomain", "WallStorage", "AnywallSupport", "CSimdjson", "CSQLite", "GRDB", "GRDBSQLite"],
        "ParseClient": ["WallDomain", "AnywallSupport", "ParseWire", "CCurl"],
        // The WebSocket comes from a library (swift-websocket), never written by hand.
        "LiveQueryClient": ["WallDomain", "ParseWire", "WSClient", "Logging", "NIOCore", "NIOPosix"],
        // The map's renderer: a pure library, no terminal, store or arguments.
        "WallMap": ["WallDomain"],
        "AnywallCLI": core.union(["LiveQueryClient", "ArgumentParser", "WallMap"]),
        "anywall": ["AnywallCLI"],
        "PostgresStore": ["WallDomain", "WallStorage", "AnywallSupport", "PostgresNIO", "NIOPosix"],
        // LiveQuery's WebSocket from Hummingbird's own package, never written by hand.
        "AnywallServer": Set(["WallDomain", "WallStorage", "AnywallSupport", "EmbeddedStore", "PostgresStore", "ParseWire", "Hummingbird", "HummingbirdCore",
                              "NIOPosix", "HummingbirdWebSocket", "AsyncHTTPClient"]).union(crypto),
        "anywall-server": ["AnywallServer", "PostgresStore", "WallDomain", "ArgumentParser", "Hummingbird", "NIOCore", "NIOPosix"],
        // AnywallServer for LiveQuery's matching benchmark (`live-matching`); WallMap for the map's drawing cost (`map`);
        // GRDBSQLite for the nearby search's peer, SQL through SQLite's C API (`nearby --sql-peer`).
        "anywall-bench": ["WallDomain", "WallLocation", "EmbeddedStore", "AnywallServer", "ArgumentParser", "WallMap", "GRDBSQLite"],
        "TestSupport": ["WallDomain", "AnywallSupport", "EmbeddedStore"],
        // NIO's WebSocket decoder, as the server decodes LiveQuery's frames.
        "FuzzTargets": ["WallDomain", "AnywallSupport", "WallLocation", "ParseWire", "ParseClient", "EmbeddedStore", "AnywallServer", "Hummingbird",
                        "NIOWebSocket", "NIOEmbedded"],
        "anywall-fuzz": ["FuzzTargets"],
    ]

    /// What a target must never reach through any path: the CLI never links the server stack, the
    /// server never links the libcurl client, the core never parses arguments.
    static let unreachable: [String: Set<String>] = [
        "AnywallCLI": ["AnywallServer", "Hummingbird", "HummingbirdCore", "PostgresStore", "PostgresNIO"],
        "anywall": ["AnywallServer", "Hummingbird", "HummingbirdCore", "PostgresStore", "PostgresNIO"],
        "AnywallServer": ["AnywallCLI", "ParseClient", "CCurl", "ArgumentParser"],
        "anywall-server": ["AnywallCLI", "ParseClient", "CCurl", "LiveQueryClient"],
        // A client of LiveQuery, not a second REST client nor anything of the server's.
        "LiveQueryClient": ["AnywallServer", "Hummingbird", "HummingbirdCore", "PostgresNIO", "ParseClient", "CCurl", "ArgumentParser", "AnywallCLI"],
            "PostgresStore": ["EmbeddedStore", "GRDB", "Hummingbird", "ArgumentParser"],
        "WallMap": ["ArgumentParser", "AnywallCLI", "AnywallSupport", "LocalState", "EmbeddedStore", "ParseClient", "AnywallServer"],
    ].merging(core.map { ($0, ["ArgumentParser", "AnywallCLI", "AnywallServer", "Hummingbird", "PostgresNIO"]) }) { $0.union($1) }

    /// Each broken rule, as "A -> B ..." for a direct edge and "A reaches B ..." for a path.
    static func violations(in graph: DependencyGraph) -> [String] {
        var found: [String] = []
        for (target, dependencies) in graph.edges.sorted(by: { $0.key < $1.key }) {
            guard let allowed = allowed[target] else { continue }
            for dependency in dependencies.subtracting(allowed).sorted() {
                found.append("\(target) -> \(dependency) is not allowed (allowed: \(allowed.sorted().joined(separator: ", ")))")
            }
        }
        for (target, banned) in unreachable.sorted(by: { $0.key < $1.key }) {
            for dependency in graph.reachable(from: target).intersection(banned).sorted() {
                found.append("\(target) reaches \(dependency), which it must never link")
            }
        }
        return found
    }
}

/// The package's targets and their direct dependencies (targets and products alike, by name).
struct DependencyGraph {
    var targets: Set<String>
    var edges: [String: Set<String>]

    /// Everything `target` depends on, directly or not. Products of other packages are leaves:
    /// the rules name them, not their insides.
    func reachable(from target: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = Array(edges[target] ?? [])
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += edges[next] ?? []
        }
        return seen
    }

    /// The graph as `swift package describe --type json` gives it for this package. A scratch
    /// path of its own, so it neither waits for nor disturbs the build running these tests.
    static func describe() throws -> DependencyGraph {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "describe", "--type", "json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw DescribeFailure(status: process.terminationStatus) }
        let package = try JSONDecoder().decode(Description.self, from: data)
        var edges: [String: Set<String>] = [:]
        for target in package.targets {
            edges[target.name] = Set(target.target_dependencies ?? []).union(target.product_dependencies ?? [])
        }
        return DependencyGraph(targets: Set(package.targets.map(\.name)), edges: edges)
    }

    private struct Description: Decodable {
        struct Target: Decodable {
            let name: String
            let target_dependencies: [String]?
            let product_dependencies: [String]?
        }

        let targets: [Target]
    }

    struct DescribeFailure: Error {
        let status: Int32
    }
}
