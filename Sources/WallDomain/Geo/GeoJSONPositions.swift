import Foundation

/// Checks every position of a GeoJSON text before GEOS reads it: GEOS 3.11's GeoJSON reader
/// reads a position of fewer than two numbers out of bounds (`[[[],[1,1],[0,0]]]` crashes the
/// process), so such text must never reach it.
enum GeoJSONPositions {
    /// How deep the positions lie in each geometry type's `coordinates`.
    private static let depth = ["Point": 0, "MultiPoint": 1, "LineString": 1, "MultiLineString": 2, "Polygon": 2, "MultiPolygon": 3]

    /// Refuses the text when a geometry's coordinates are not arrays of positions of two or
    /// three finite numbers at the depth its type has; other mistakes are left to GEOS's reasons.
    /// JSON that Foundation cannot read is refused too, rather than left to GEOS's own parser
    /// (which, for one, stops at a NUL that Foundation sees past).
    static func check(_ text: String) throws {
        guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            throw AnywallError.inputRejected("bad GeoJSON: not valid JSON")
        }
        try check(json)
    }

    private static func check(_ json: Any) throws {
        guard let object = json as? [String: Any] else { return }
        if let type = object["type"] as? String, let depth = depth[type], let coordinates = object["coordinates"] {
            try checkPositions(coordinates, depth: depth)
        }
        for key in ["geometry", "geometries", "features"] {
            if let nested = object[key] as? [Any] { try nested.forEach(check) } else if let nested = object[key] { try check(nested) }
        }
    }

    private static func checkPositions(_ value: Any, depth: Int) throws {
        guard let array = value as? [Any] else { throw refusal }
        if depth > 0 { return try array.forEach { try checkPositions($0, depth: depth - 1) } }
        let numbers = array.compactMap { ($0 as? NSNumber).map(\.doubleValue) }
        guard numbers.count == array.count, (2...3).contains(numbers.count), numbers.allSatisfy(\.isFinite) else { throw refusal }
    }

    private static let refusal = AnywallError.inputRejected(
        "bad GeoJSON: every position must be [longitude, latitude] (an optional third number is the height)")
}
