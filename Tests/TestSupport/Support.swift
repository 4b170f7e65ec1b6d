import AnywallSupport
import EmbeddedStore
import Foundation
import WallDomain

/// The deterministic random number generator the benchmarks use too, so test data is the same every run.
package typealias SeededGenerator = AnywallSupport.SeededGenerator

/// Runs a Python program (for independent reference libraries such as geographiclib).
package enum Python {
    package struct Failure: Error, CustomStringConvertible { package let description: String }

    package static func run(_ program: String, input: String) throws -> String {
        try run(arguments: ["-c", program], input: input)
    }

    /// Runs the script at `path` with `arguments`.
    package static func run(script path: URL, _ arguments: [String]) throws -> String {
        try run(arguments: [path.path] + arguments, input: "")
    }

    private static func run(arguments: [String], input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-py-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inFile = dir.appendingPathComponent("in"), outFile = dir.appendingPathComponent("out"), errFile = dir.appendingPathComponent("err")
        try input.write(to: inFile, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        process.standardInput = try FileHandle(forReadingFrom: inFile)
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        try process.runRetryingDescriptorRace()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 failed: " + (try String(contentsOf: errFile, encoding: .utf8)))
        }
        return try String(contentsOf: outFile, encoding: .utf8)
    }
}

/// A new embedded wall in a temporary folder, with a fast password hash (the real KDF, low cost).
package func temporaryWall(clock: WallClock = .system, sessionLength: Duration = EmbeddedWall.defaultSessionLength,
                           file: URL? = nil) throws -> EmbeddedWall {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-test-\(UUID().uuidString)")
    return try EmbeddedWall(file: file ?? dir.appendingPathComponent("wall.sqlite"),
                            hasher: PasswordHasher(rounds: 1 << 10, blockSize: 8, parallelism: 1), clock: clock, sessionLength: sessionLength)
}

extension GeoPoint {
    /// The point `distance` from here along the initial bearing `bearing` (degrees), on the 6371 km sphere.
    package func moved(_ distance: Distance, bearing: Double) throws -> GeoPoint {
        let delta = distance.meters / GreatCircle.earthRadius.meters
        let theta = bearing * .pi / 180
        let phi1 = latitude * .pi / 180, lambda1 = longitude * .pi / 180
        let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta))
        let lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
        var lon = lambda2 * 180 / .pi
        lon = (lon + 540).truncatingRemainder(dividingBy: 360) - 180
        return try GeoPoint(latitude: phi2 * 180 / .pi, longitude: lon)
    }
}
