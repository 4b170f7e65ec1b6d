import CGEOS

/// A GEOS geometry: owned (destroyed with this object) or borrowed from the geometry holding it.
final class GEOSGeometry {
    let context: GEOSContext
    private var pointer: OpaquePointer?
    private let owned: Bool
    /// Keeps the owner of a borrowed part alive as long as the part.
    private let parent: GEOSGeometry?

    init(owning pointer: OpaquePointer, in context: GEOSContext) {
        self.context = context
        self.pointer = pointer
        owned = true
        parent = nil
    }

    private init(borrowing pointer: OpaquePointer, of parent: GEOSGeometry) {
        context = parent.context
        self.pointer = pointer
        owned = false
        self.parent = parent
    }

    private var handle: GEOSContextHandle_t { context.handle }
    private var api: cgeos_api { context.api }

    /// The raw pointer, for GEOS calls that read the geometry.
    var raw: OpaquePointer { pointer! }

    /// Hands the geometry to a GEOS call that takes ownership of it.
    func release() -> OpaquePointer {
        precondition(owned, "only an owned geometry can be given away")
        defer { pointer = nil }
        return raw
    }

    var typeId: GEOSGeomTypes { GEOSGeomTypes(UInt32(api.GEOSGeomTypeId_r(handle, raw))) }
    var typeName: String { api.GEOSGeomType_r(handle, raw).map { name in defer { api.GEOSFree_r(handle, name) }; return String(cString: name) } ?? "?" }
    var isEmpty: Bool { api.GEOSisEmpty_r(handle, raw) == 1 }

    /// nil when the geometry is valid (OGC rules); else GEOS's reason, e.g. "Self-intersection[5 5]".
    var invalidityReason: String? {
        guard api.GEOSisValid_r(handle, raw) != 1 else { return nil }
        guard let reason = api.GEOSisValidReason_r(handle, raw) else { return context.takeError(or: "invalid geometry") }
        defer { api.GEOSFree_r(handle, reason) }
        return String(cString: reason)
    }

    /// The geometries a collection holds (a polygon holds itself).
    var members: [GEOSGeometry] {
        let count = api.GEOSGetNumGeometries_r(handle, raw)
        guard typeId != GEOS_POLYGON, count > 0 else { return [self] }
        return (0..<count).compactMap { api.GEOSGetGeometryN_r(handle, raw, $0).map { GEOSGeometry(borrowing: $0, of: self) } }
    }

    /// The union of the members of a collection, as one valid polygon or multipolygon.
    func union() throws -> GEOSGeometry {
        guard let united = api.GEOSUnaryUnion_r(handle, raw) else {
            throw AnywallError.inputRejected("GEOS could not join the shapes: \(context.takeError(or: "union failed"))")
        }
        return GEOSGeometry(owning: united, in: context)
    }

    /// The smallest longitude/latitude box holding the geometry.
    var bounds: BoundingBox {
        var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
        _ = api.GEOSGeom_getXMin_r(handle, raw, &minX)
        _ = api.GEOSGeom_getYMin_r(handle, raw, &minY)
        _ = api.GEOSGeom_getXMax_r(handle, raw, &maxX)
        _ = api.GEOSGeom_getYMax_r(handle, raw, &maxY)
        return BoundingBox(minLatitude: minY, maxLatitude: maxY, minLongitude: minX, maxLongitude: maxX)
    }

    /// The part of the geometry inside `box`, cut at its edges (GEOS's fast rectangle clip: a line
    /// that leaves and re-enters the box comes back in pieces).
    func clipped(to box: BoundingBox) throws -> GEOSGeometry {
        guard let clipped = api.GEOSClipByRect_r(handle, raw, box.minLongitude, box.minLatitude, box.maxLongitude, box.maxLatitude) else {
            throw AnywallError.failure("GEOS could not clip: \(context.takeError(or: "clip failed"))")
        }
        return GEOSGeometry(owning: clipped, in: context)
    }

    /// The vertices of a line, or of a polygon's outer ring (closed: the last repeats the first), in order.
    var vertices: [AreaVertex] {
        let line = typeId == GEOS_POLYGON ? api.GEOSGetExteriorRing_r(handle, raw) : raw
        guard let line, let sequence = api.GEOSGeom_getCoordSeq_r(handle, line) else { return [] }
        var size: UInt32 = 0
        _ = api.GEOSCoordSeq_getSize_r(handle, sequence, &size)
        return (0..<size).map { index in
            var x = 0.0, y = 0.0
            _ = api.GEOSCoordSeq_getXY_r(handle, sequence, index, &x, &y)
            return AreaVertex(latitude: y, longitude: x)
        }
    }

    /// How many holes a polygon has.
    var holeCount: Int { Int(api.GEOSGetNumInteriorRings_r(handle, raw)) }

    /// The geometry as Well-Known Text, shortest exact numbers.
    var wkt: String {
        guard let writer = api.GEOSWKTWriter_create_r(handle) else { return typeName }
        defer { api.GEOSWKTWriter_destroy_r(handle, writer) }
        api.GEOSWKTWriter_setTrim_r(handle, writer, 1)
        guard let text = api.GEOSWKTWriter_write_r(handle, writer, raw) else { return typeName }
        defer { api.GEOSFree_r(handle, text) }
        return String(cString: text)
    }

    deinit {
        if owned, let pointer { api.GEOSGeom_destroy_r(handle, pointer) }
    }
}
