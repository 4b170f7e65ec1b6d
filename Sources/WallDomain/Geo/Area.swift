import CGEOS
import Foundation

/// A region posts are kept to (`nearby --within`): one or more polygons, holes allowed, on the
/// longitude/latitude plane, prepared with GEOS for fast point tests.
///
/// Edges are straight lines in longitude and latitude, as RFC 7946 and Parse's `$box` and
/// `$polygon` read them; a point on an edge is inside. Invalid shapes (self-intersecting rings,
/// holes outside their shell...) are refused with GEOS's reason.
///
/// GEOS handles are not thread-safe: every GEOS call on an area holds its lock.
public final class Area: @unchecked Sendable, Equatable, CustomStringConvertible {
    private let lock = NSLock()
    private let geometry: GEOSGeometry
    private let prepared: OpaquePointer
    /// The polygons, for a backend that passes the area on to its server.
    public let parts: [AreaPart]
    /// The area as Well-Known Text: names it in cached and saved results.
    public let description: String

    /// Boxes that together hold the whole area, to find candidates by an index.
    public var boxes: [BoundingBox] { parts.map(\.bounds) }

    /// Takes a geometry read from what the user gave: a polygon, a multipolygon, or a collection
    /// of them (a FeatureCollection), which is joined into one.
    init(_ given: GEOSGeometry) throws {
        var geometry = given
        switch given.typeId {
        case GEOS_POLYGON, GEOS_MULTIPOLYGON:
            try Self.checkValid(given)
        case GEOS_GEOMETRYCOLLECTION:
            guard !given.isEmpty else { throw AnywallError.inputRejected("the area is empty") }
            for member in given.members {
                try Self.checkPolygonal(member)
                try Self.checkValid(member)
            }
            geometry = try given.union()
        default:
            try Self.checkPolygonal(given)
        }
        guard !geometry.isEmpty else { throw AnywallError.inputRejected("the area is empty") }
        try Self.checkRange(geometry.bounds)
        guard let prepared = geometry.context.api.GEOSPrepare_r(geometry.context.handle, geometry.raw) else {
            throw AnywallError.failure("GEOS could not prepare the area: \(geometry.context.takeError(or: "no reason given"))")
        }
        self.geometry = geometry
        self.prepared = prepared
        parts = geometry.members.map { AreaPart(shell: $0.vertices, bounds: $0.bounds, holeCount: $0.holeCount) }
        description = geometry.wkt
    }

    /// The polygon through `corners` (closed if the last is not the first).
    public convenience init(polygon corners: [AreaVertex]) throws {
        try self.init(try GEOSContext().polygon(shell: corners))
    }

    /// Whether `point` lies in the area or on its edge.
    public func covers(_ point: GeoPoint) -> Bool {
        lock.withLock {
            guard let location = geometry.context.point(point) else { return false }
            return geometry.context.api.GEOSPreparedCovers_r(geometry.context.handle, prepared, location.raw) == 1
        }
    }

    public static func == (a: Area, b: Area) -> Bool {
        a.description == b.description
    }

    private static func checkPolygonal(_ geometry: GEOSGeometry) throws {
        guard geometry.typeId == GEOS_POLYGON || geometry.typeId == GEOS_MULTIPOLYGON else {
            throw AnywallError.inputRejected("an area must be a Polygon or MultiPolygon, not a \(geometry.typeName)")
        }
    }

    private static func checkValid(_ geometry: GEOSGeometry) throws {
        if let reason = geometry.invalidityReason {
            throw AnywallError.inputRejected("the area is not a valid polygon: \(reason)")
        }
    }

    /// GeoJSON and WKT put longitude first; a latitude beyond 90 is usually the two swapped.
    private static func checkRange(_ bounds: BoundingBox) throws {
        guard bounds.minLongitude >= -180, bounds.maxLongitude <= 180, bounds.minLatitude >= -90, bounds.maxLatitude <= 90 else {
            throw AnywallError.inputRejected(
                "the area reaches beyond longitude -180..180 or latitude -90..90 (GeoJSON and WKT give longitude first)")
        }
    }

    deinit {
        geometry.context.api.GEOSPreparedGeom_destroy_r(geometry.context.handle, prepared)
    }
}
