import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// `--within AREA`: the area inline, or `@PATH` to read it from a file (`@-`: standard input).
struct AreaOption: ParsableArguments {
    // Unconditional: a box such as `-10,35,5,44` starts with a minus and is still a value.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Only posts inside AREA: a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection, WKT, or a box WEST,SOUTH,EAST,NORTH; @FILE reads it from a file, @- from stdin.",
        valueName: "AREA"))
    var within: String?

    /// Whether `path` names a file one could read (not a folder).
    private static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// The most an area file may hold: a detailed country outline is a few MiB.
    static let fileLimit = 16 * 1024 * 1024

    /// The area, read and checked by GEOS; nil without `--within`.
    func area() throws -> Area? {
        guard let within else { return nil }
        guard within.hasPrefix("@") else {
            do {
                return try Area(parsing: within)
            } catch AnywallError.inputRejected(let message) where Self.isFile(within) {
                // The value names a file: the user meant to read it.
                throw AnywallError.inputRejected("\(message) (to read the file \(within), write @\(within))")
            }
        }
        let path = String(within.dropFirst())
        let name = path == "-" ? "standard input" : path
        guard let handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path) else {
            throw AnywallError.fileUnreadable("cannot read the area file \(path)")
        }
        let data = try LineReader.readAll(handle, name: name, limit: Self.fileLimit, holding: "an area")
        do {
            return try Area(parsing: String(decoding: data, as: UTF8.self))
        } catch let error as AnywallError {
            if case .inputRejected(let message) = error { throw AnywallError.inputRejected("\(name): \(message)") }
            throw error
        }
    }
}
