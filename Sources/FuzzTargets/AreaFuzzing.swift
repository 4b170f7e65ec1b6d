import WallDomain

/// An area as text (GeoJSON, WKT, a box), read and tested as `--within` uses it.
enum AreaFuzzing {
    static func run(_ input: [UInt8]) {
        guard let area = try? Area(parsing: String(decoding: input, as: UTF8.self)) else { return }
        for box in area.boxes {
            if let corner = try? GeoPoint(latitude: box.minLatitude, longitude: box.minLongitude) { _ = area.covers(corner) }
        }
    }
}
