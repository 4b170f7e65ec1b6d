import CGEOS
import Foundation

/// One handle on GEOS's reentrant C API, and the last error GEOS reported on it.
///
/// GEOS reports a parse or topology failure through a message handler, not a return value:
/// the handler keeps the message so a refusal can quote GEOS's own words.
final class GEOSContext {
    /// GEOS's functions, from the library loaded at first use.
    let api: cgeos_api
    let handle: GEOSContextHandle_t
    private let messages = ErrorMessages()

    /// Where GEOS's error handler writes; a class so the C callback can reach it by pointer.
    private final class ErrorMessages {
        var last: String?
    }

    init() throws {
        guard let table = cgeos_load() else {
            throw AnywallError.failure("cannot load GEOS (libgeos_c, Debian's libgeos-c1v5): \(String(cString: cgeos_load_error()))")
        }
        api = table.pointee
        guard let handle = api.GEOS_init_r() else { throw AnywallError.failure("GEOS could not start") }
        self.handle = handle
        _ = api.GEOSContext_setErrorMessageHandler_r(handle, { message, userData in
            guard let message, let userData else { return }
            Unmanaged<ErrorMessages>.fromOpaque(userData).takeUnretainedValue().last = String(cString: message)
        }, Unmanaged.passUnretained(messages).toOpaque())
    }

    /// The message GEOS gave for its last failure, or `fallback` when it gave none; then forgets it.
    func takeError(or fallback: String) -> String {
        defer { messages.last = nil }
        return messages.last ?? fallback
    }

    /// Reads Well-Known Text.
    func geometry(wkt: String) throws -> GEOSGeometry {
        try read(wkt, as: "WKT", create: api.GEOSWKTReader_create_r, destroy: api.GEOSWKTReader_destroy_r) {
            api.GEOSWKTReader_read_r(handle, $0, $1)
        }
    }

    /// Reads GeoJSON: a geometry, a Feature (its geometry) or a FeatureCollection (a collection).
    func geometry(geoJSON: String) throws -> GEOSGeometry {
        try read(geoJSON, as: "GeoJSON", create: api.GEOSGeoJSONReader_create_r, destroy: api.GEOSGeoJSONReader_destroy_r) {
            api.GEOSGeoJSONReader_readGeometry_r(handle, $0, $1)
        }
    }

    /// Reads Well-Known Binary.
    func geometry(wkb: Data) throws -> GEOSGeometry {
        guard let reader = api.GEOSWKBReader_create_r(handle) else { throw AnywallError.failure("GEOS could not read WKB") }
        defer { api.GEOSWKBReader_destroy_r(handle, reader) }
        let pointer = wkb.withUnsafeBytes { bytes in
            api.GEOSWKBReader_read_r(handle, reader, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
        }
        guard let pointer else { throw AnywallError.inputRejected("bad WKB: \(takeError(or: "GEOS could not read it"))") }
        return GEOSGeometry(owning: pointer, in: self)
    }

    /// Reads `text` with a reader GEOS makes for the format and destroys after; a refusal quotes GEOS.
    private func read(_ text: String, as format: String, create: (GEOSContextHandle_t?) -> OpaquePointer?,
                      destroy: (GEOSContextHandle_t?, OpaquePointer?) -> Void,
                      read: (OpaquePointer, String) -> OpaquePointer?) throws -> GEOSGeometry {
        guard let reader = create(handle) else { throw AnywallError.failure("GEOS could not read \(format)") }
        defer { destroy(handle, reader) }
        guard let pointer = read(reader, text) else {
            throw AnywallError.inputRejected("bad \(format): \(takeError(or: "GEOS could not read it"))")
        }
        return GEOSGeometry(owning: pointer, in: self)
    }

    /// The polygon with `shell` as its outer ring (closed here when the last vertex is not the first).
    func polygon(shell: [AreaVertex]) throws -> GEOSGeometry {
        var ring = shell
        if let first = ring.first, ring.last != first { ring.append(first) }
        guard ring.count >= 4 else { throw AnywallError.inputRejected("a polygon needs at least 3 corners") }
        guard let sequence = api.GEOSCoordSeq_create_r(handle, UInt32(ring.count), 2) else {
            throw AnywallError.failure("GEOS could not make a polygon")
        }
        for (index, vertex) in ring.enumerated() {
            _ = api.GEOSCoordSeq_setXY_r(handle, sequence, UInt32(index), vertex.longitude, vertex.latitude)
        }
        // The ring takes the sequence, the polygon the ring.
        guard let shell = api.GEOSGeom_createLinearRing_r(handle, sequence) else {
            api.GEOSCoordSeq_destroy_r(handle, sequence)
            throw AnywallError.inputRejected("bad polygon: \(takeError(or: "GEOS could not make its ring"))")
        }
        guard let polygon = api.GEOSGeom_createPolygon_r(handle, shell, nil, 0) else {
            api.GEOSGeom_destroy_r(handle, shell)
            throw AnywallError.failure("GEOS could not make a polygon")
        }
        return GEOSGeometry(owning: polygon, in: self)
    }

    /// A multipolygon of `polygons`, which it takes.
    func multiPolygon(_ polygons: [GEOSGeometry]) throws -> GEOSGeometry {
        var pointers: [OpaquePointer?] = polygons.map { $0.release() }
        guard let collection = api.GEOSGeom_createCollection_r(handle, Int32(GEOS_MULTIPOLYGON.rawValue), &pointers, UInt32(pointers.count)) else {
            for pointer in pointers { api.GEOSGeom_destroy_r(handle, pointer) }
            throw AnywallError.failure("GEOS could not make a multipolygon")
        }
        return GEOSGeometry(owning: collection, in: self)
    }

    /// A point at `longitude`, `latitude` (GEOS's x, y).
    func point(_ location: GeoPoint) -> GEOSGeometry? {
        api.GEOSGeom_createPointFromXY_r(handle, location.longitude, location.latitude).map { GEOSGeometry(owning: $0, in: self) }
    }

    deinit {
        api.GEOS_finish_r(handle)
    }
}
