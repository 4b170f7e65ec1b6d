import Foundation

extension Area {
    /// Reads an area as people write one:
    /// - GeoJSON (RFC 7946): a Polygon or MultiPolygon, a Feature holding one, or a
    ///   FeatureCollection of them (joined);
    /// - WKT: `POLYGON ((...))` or `MULTIPOLYGON (...)`;
    /// - a box `WEST,SOUTH,EAST,NORTH`, bare or as a GeoJSON bbox array `[W, S, E, N]`; a west
    ///   greater than the east crosses the antimeridian (RFC 7946, 5.2).
    public convenience init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first else { throw AnywallError.inputRejected("the area is empty") }
        // GEOS reads C strings: text past a NUL would be checked here and never seen there.
        guard !trimmed.unicodeScalars.contains("\0") else { throw AnywallError.inputRejected("the area holds a NUL character") }
        let context = try GEOSContext()
        if first == "{" {
            try GeoJSONPositions.check(trimmed)
            try self.init(try context.geometry(geoJSON: trimmed))
        } else if let box = try Self.box(trimmed) {
            try self.init(try Self.polygons(of: box, in: context))
        } else {
            try self.init(try context.geometry(wkt: trimmed))
        }
    }

    /// A box's edges, from `W,S,E,N` or `[W,S,E,N]`; nil when the text is not written as a box.
    private static func box(_ text: String) throws -> (west: Double, south: Double, east: Double, north: Double)? {
        var body = Substring(text)
        if body.first == "[" {
            guard body.last == "]" else { throw AnywallError.inputRejected("bad box '\(text)': expected [WEST,SOUTH,EAST,NORTH]") }
            body = body.dropFirst().dropLast()
        } else if !body.contains(",") || body.contains(where: \.isLetter) {
            return nil
        }
        let numbers = body.split(separator: ",", omittingEmptySubsequences: false)
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.filter(\.isFinite)
        guard numbers.count == 4, body.split(separator: ",", omittingEmptySubsequences: false).count == 4 else {
            throw AnywallError.inputRejected("bad box '\(text)': expected four numbers WEST,SOUTH,EAST,NORTH in degrees")
        }
        let (west, south, east, north) = (numbers[0], numbers[1], numbers[2], numbers[3])
        // Each value is named, so that a box written latitude first shows which one is wrong.
        let swapped = [south, north].allSatisfy({ (-180...180).contains($0) }) && [west, east].allSatisfy({ (-90...90).contains($0) })
            ? "; latitude and longitude swapped? A box is WEST,SOUTH,EAST,NORTH, longitude first" : ""
        for (name, value) in [("WEST", west), ("EAST", east)] where !(-180...180).contains(value) {
            throw AnywallError.inputRejected("bad box '\(text)': \(name) \(value) is not a longitude (-180 to 180)")
        }
        for (name, value) in [("SOUTH", south), ("NORTH", north)] where !(-90...90).contains(value) {
            throw AnywallError.inputRejected("bad box '\(text)': \(name) \(value) is not a latitude (-90 to 90)\(swapped)")
        }
        guard south < north else {
            throw AnywallError.inputRejected("bad box '\(text)': it has no area: SOUTH \(south) must be below NORTH \(north)")
        }
        guard west != east else {
            throw AnywallError.inputRejected("bad box '\(text)': it has no area (WEST and EAST are both \(west))")
        }
        return (west, south, east, north)
    }

    /// The box as one polygon, or as two meeting at the antimeridian when west > east.
    private static func polygons(of box: (west: Double, south: Double, east: Double, north: Double),
                                 in context: GEOSContext) throws -> GEOSGeometry {
        func rectangle(_ west: Double, _ east: Double) throws -> GEOSGeometry {
            try context.polygon(shell: [AreaVertex(latitude: box.south, longitude: west), AreaVertex(latitude: box.south, longitude: east),
                                        AreaVertex(latitude: box.north, longitude: east), AreaVertex(latitude: box.north, longitude: west)])
        }
        guard box.west > box.east else { return try rectangle(box.west, box.east) }
        // A side of zero width (west 180 or east -180) is no part of the area.
        let sides = [(box.west, 180.0), (-180.0, box.east)].filter { $0.0 < $0.1 }
        return try context.multiPolygon(sides.map { try rectangle($0.0, $0.1) })
    }
}
