import AnywallCore
import CGEOS

/// A polygon on the latitude/longitude plane, as `$geoWithin/$polygon` means it (planar, edges
/// included, as Parse Server's MongoDB and PostgreSQL adapters test it), prepared with GEOS for
/// repeated point tests.
///
/// Each area has its own GEOS context and serves one request at a time (hence unchecked
/// Sendable: it only moves to the thread that runs the query).
final class PolygonArea: @unchecked Sendable {
    /// GEOS refused the polygon; `reason` is GEOS's own words.
    struct Invalid: Error {
        let reason: String
    }

    private let context: GEOSContextHandle_t
    private let polygon: OpaquePointer
    private let prepared: OpaquePointer
    /// The smallest box holding the polygon.
    let bounds: BoundingBox

    /// A corner in degrees (the poles and the antimeridian included, unlike a `GeoPoint`).
    typealias Vertex = (latitude: Double, longitude: Double)

    /// The polygon through `vertices` (closed if the last is not the first). Refuses fewer than
    /// three distinct vertices and any polygon GEOS finds invalid (e.g. self-intersecting).
    init(vertices: [Vertex]) throws {
        var ring = vertices
        if let first = ring.first, let last = ring.last, first != last { ring.append(first) }
        guard ring.count >= 4 else { throw Invalid(reason: "a polygon needs at least 3 points") }
        guard let context = GEOS_init_r() else { throw Invalid(reason: "GEOS could not start") }
        self.context = context
        guard let sequence = GEOSCoordSeq_create_r(context, UInt32(ring.count), 2) else {
            GEOS_finish_r(context)
            throw Invalid(reason: "GEOS could not make the polygon")
        }
        for (index, point) in ring.enumerated() {
            GEOSCoordSeq_setXY_r(context, sequence, UInt32(index), point.longitude, point.latitude)
        }
        // The shell takes the sequence, the polygon the shell.
        guard let shell = GEOSGeom_createLinearRing_r(context, sequence),
              let polygon = GEOSGeom_createPolygon_r(context, shell, nil, 0) else {
            GEOS_finish_r(context)
            throw Invalid(reason: "GEOS could not make the polygon")
        }
        guard GEOSisValid_r(context, polygon) == 1 else {
            let reason = GEOSisValidReason_r(context, polygon).map { text in
                defer { GEOSFree_r(context, text) }
                return String(cString: text)
            } ?? "invalid polygon"
            GEOSGeom_destroy_r(context, polygon)
            GEOS_finish_r(context)
            throw Invalid(reason: reason)
        }
        guard let prepared = GEOSPrepare_r(context, polygon) else {
            GEOSGeom_destroy_r(context, polygon)
            GEOS_finish_r(context)
            throw Invalid(reason: "GEOS could not prepare the polygon")
        }
        self.polygon = polygon
        self.prepared = prepared
        bounds = BoundingBox(minLatitude: ring.map(\.latitude).min()!, maxLatitude: ring.map(\.latitude).max()!,
                             minLongitude: ring.map(\.longitude).min()!, maxLongitude: ring.map(\.longitude).max()!)
    }

    /// Whether `point` lies in the polygon or on its edge.
    func covers(_ point: GeoPoint) -> Bool {
        guard let geometry = GEOSGeom_createPointFromXY_r(context, point.longitude, point.latitude) else { return false }
        defer { GEOSGeom_destroy_r(context, geometry) }
        return GEOSPreparedCovers_r(context, prepared, geometry) == 1
    }

    deinit {
        GEOSPreparedGeom_destroy_r(context, prepared)
        GEOSGeom_destroy_r(context, polygon)
        GEOS_finish_r(context)
    }
}
