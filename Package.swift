// swift-tools-version:6.1
import PackageDescription

// The targets are the architecture (docs/architecture.md): each may depend only on what its layer
// may use, and ArchitectureTests fails the suite when an edge the architecture forbids appears.
let package = Package(
    name: "anywall",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "anywall", targets: ["anywall"]),
        .executable(name: "anywall-server", targets: ["anywall-server"]),
        .executable(name: "anywall-bench", targets: ["anywall-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // No default traits: the server needs neither swift-configuration nor the URL-form coders.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        // The LiveQuery client's WebSocket (docs/decisions.md: why this one).
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        // The logger swift-websocket's client takes, given one that keeps quiet.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The server's outbound calls (the Graph API checking a Facebook token); never libcurl.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // libcurl's headers at build time; the library itself is loaded at first use (see CCurl.h).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // GEOS's headers at build time (libgeos-dev); the library itself is loaded at first use (see CGEOS.h).
        .target(name: "CGEOS", linkerSettings: [.linkedLibrary("dl")]),
        // sqlite3_config, which Swift cannot call (variadic); SQLite itself comes with GRDB.
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        // simdjson's header at build time (libsimdjson-dev); the library itself is loaded at first use (see CSimdjson.h).
        .target(name: "CSimdjson", linkerSettings: [.linkedLibrary("dl")]),

        // The domain: geo, posts, queries, visibility, the diff, watch, the outbox's rules, the
        // backend protocol and its errors. No storage, HTTP, files, terminal or argument parsing.
        .target(name: "WallDomain", dependencies: ["CGEOS"]),
        // What both of the server's stores share and the domain does not hold: the SQL a query
        // becomes, a post's access as its columns keep it, a post's row.
        .target(name: "WallStorage", dependencies: ["WallDomain"]),
        // What talks to the operating system: files written durably, descriptors, sockets, signals;
        // and the credentials both of the server's stores keep: password hashes, ids and tokens.
        .target(name: "AnywallSupport", dependencies: [
            "WallDomain", .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        // Location sources: NMEA, gpsd, serial devices.
        .target(name: "WallLocation", dependencies: ["WallDomain", "AnywallSupport"]),
        // Parse's wire format: headers, error codes, GeoPoint/Pointer/Date/ACL codecs, the
        // where-clause both ways. Shared by the client and the server.
        .target(name: "ParseWire", dependencies: ["WallDomain"]),
        // The CLI's files: settings, session, caches and saved results, the outbox.
        .target(name: "LocalState", dependencies: ["WallDomain", "AnywallSupport", "WallLocation", "ParseWire"]),
        // The embedded SQLite wall (GRDB).
        .target(
            name: "EmbeddedStore",
            dependencies: [
                "WallDomain", "WallStorage", "AnywallSupport", "CSimdjson", "CSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            // ICU's regular expressions (`$regex`, for their time limit): the toolchain's copy, which Foundation links too.
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),
        // A Parse Server's REST API over libcurl.
        .target(name: "ParseClient", dependencies: ["WallDomain", "AnywallSupport", "ParseWire", "CCurl"]),
        // Parse LiveQuery's client over a WebSocket (swift-websocket): a subscription that
        // reconnects and resumes, its messages both ways.
        .target(
            name: "LiveQueryClient",
            dependencies: [
                "WallDomain", "ParseWire",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
                // Already the client's own: named to read its connection errors.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The map as a picture: posts, a fix and a size in, a grid of cells out. No terminal in it.
        .target(name: "WallMap", dependencies: ["WallDomain"]),
        // The CLI's use cases and printers; the executable only calls it.
        .target(
            name: "AnywallCLI",
            dependencies: [
                "WallDomain", "AnywallSupport", "WallLocation", "LocalState", "EmbeddedStore", "ParseWire", "ParseClient", "LiveQueryClient", "WallMap",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A fixed-address executable in release: a PIE's ~94,000 relocations are written at every
        // start (a tenth of a nearby's time, a fifth of `--version`'s). docs/decisions.md weighs it.
        // Nor does it export its symbols (SwiftPM links executables with --export-dynamic): the Swift
        // runtime's start looks up its own path with dladdr, which reads every exported symbol, and
        // 35,880 of them made that a quarter of `--version`'s instructions.
        .executableTarget(
            name: "anywall", dependencies: ["AnywallCLI"],
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic"], .when(configuration: .release))]
        ),
        // The server's wall in PostgreSQL with PostGIS (postgres-nio): many servers, one wall.
        .target(
            name: "PostgresStore",
            dependencies: [
                "WallDomain", "WallStorage", "AnywallSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The calls' deadlines are timers of its event loops (PostgresWall.within).
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // anywall-server as a library: one function builds the application.
        .target(
            name: "AnywallServer",
            dependencies: [
                "WallDomain", "WallStorage", "AnywallSupport", "EmbeddedStore", "PostgresStore", "ParseWire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // The connection cap (MaximumAvailableConnections) lives in the core, not re-exported.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // Whether a request's task runs on an event loop (SQLiteWallStore).
                .product(name: "NIOPosix", package: "swift-nio"),
                // LiveQuery's WebSocket, on the API's own port.
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                // The Graph API's answer to a Facebook token (FacebookAuthAdapter).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "anywall-server",
            dependencies: [
                "AnywallServer", "PostgresStore", "WallDomain",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // The event loops as Swift concurrency's executor (ServeCommand).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Where bytes from outside come in, as functions a fuzzer drives (scripts/fuzz).
        .target(
            name: "FuzzTargets",
            dependencies: [
                "WallDomain", "AnywallSupport", "WallLocation", "ParseWire", "ParseClient", "EmbeddedStore", "AnywallServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                // LiveQuery's frames, decoded as the server decodes them.
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "anywall-fuzz", dependencies: ["FuzzTargets"]),
        .executableTarget(
            name: "anywall-bench",
            dependencies: [
                "WallDomain", "WallLocation", "EmbeddedStore", "AnywallServer", "WallMap",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The SQL peer of the nearby search talks to SQLite through its C API.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),

        .target(name: "TestSupport", dependencies: ["WallDomain", "AnywallSupport", "EmbeddedStore"], path: "Tests/TestSupport"),
        .testTarget(name: "WallDomainTests", dependencies: ["WallDomain", "EmbeddedStore", "TestSupport"]),
        .testTarget(name: "WallMapTests", dependencies: ["WallMap", "WallDomain", "TestSupport"]),
        .testTarget(name: "WallLocationTests", dependencies: ["WallLocation", "TestSupport"]),
        .testTarget(name: "LocalStateTests", dependencies: ["LocalState", "TestSupport"]),
        .testTarget(
            name: "EmbeddedStoreTests",
            dependencies: ["EmbeddedStore", "WallStorage", "AnywallSupport", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "ParseWireTests", dependencies: ["ParseWire", "EmbeddedStore", "TestSupport"]),
        .testTarget(name: "ParseClientTests", dependencies: ["ParseClient", "ParseWire"]),
        .testTarget(
            name: "AnywallCLITests",
            dependencies: ["AnywallCLI", "LocalState", "ParseClient", "ParseWire", "EmbeddedStore", "TestSupport", "anywall", "anywall-server"]),
        .testTarget(
            name: "AnywallServerTests",
            dependencies: [
                "AnywallServer", "TestSupport", "anywall-server",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "PostgresStoreTests", dependencies: ["TestSupport", "EmbeddedStore", "anywall-server"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
        .testTarget(name: "ArchitectureTests"),
    ],
    cxxLanguageStandard: .cxx17
)
