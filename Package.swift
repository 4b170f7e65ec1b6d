// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "anywall",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "anywall", targets: ["anywall"]),
        .executable(name: "anywall-server", targets: ["anywall-server"]),
        .executable(name: "anywall-bench", targets: ["anywall-bench"]),
        .library(name: "AnywallCore", targets: ["AnywallCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // No default traits: the server needs neither swift-configuration nor the URL-form coders.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        // libcurl's headers at build time; the library itself is loaded at first use (see CCurl.h).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // GEOS's headers at build time (libgeos-dev); the library itself is loaded at first use (see CGEOS.h).
        .target(name: "CGEOS", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "AnywallCore",
            dependencies: [
                "CCurl",
                "CGEOS",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "anywall",
            dependencies: [
                "AnywallCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "anywall-server",
            dependencies: [
                "AnywallCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .executableTarget(
            name: "anywall-bench",
            dependencies: [
                "AnywallCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "AnywallCoreTests", dependencies: ["AnywallCore"]),
        .testTarget(name: "AnywallCLITests", dependencies: ["AnywallCore", "anywall", "anywall-server"]),
    ]
)
