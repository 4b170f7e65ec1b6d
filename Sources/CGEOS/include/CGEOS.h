// GEOS's reentrant C API for Swift, loaded with dlopen at first use.
//
// libgeos_c pulls in the C++ GEOS library: linked, it would slow every start of anywall
// (docs/performance.md), while only `nearby --within` and anywall-server's polygon queries need it. Swift calls
// the functions through the table `cgeos_load` returns; calling a GEOS function directly fails
// to link, by design.
#ifndef CGEOS_H
#define CGEOS_H

#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

// The GEOS functions anywall uses.
#define CGEOS_FUNCTIONS(X) \
    X(GEOS_init_r) X(GEOS_finish_r) X(GEOSContext_setErrorMessageHandler_r) X(GEOSFree_r) \
    X(GEOSWKTReader_create_r) X(GEOSWKTReader_destroy_r) X(GEOSWKTReader_read_r) \
    X(GEOSWKTWriter_create_r) X(GEOSWKTWriter_destroy_r) X(GEOSWKTWriter_setTrim_r) X(GEOSWKTWriter_write_r) \
    X(GEOSGeoJSONReader_create_r) X(GEOSGeoJSONReader_destroy_r) X(GEOSGeoJSONReader_readGeometry_r) \
    X(GEOSWKBReader_create_r) X(GEOSWKBReader_destroy_r) X(GEOSWKBReader_read_r) X(GEOSClipByRect_r) \
    X(GEOSCoordSeq_create_r) X(GEOSCoordSeq_destroy_r) X(GEOSCoordSeq_getSize_r) X(GEOSCoordSeq_getXY_r) \
    X(GEOSCoordSeq_setXY_r) \
    X(GEOSGeom_createLinearRing_r) X(GEOSGeom_createPolygon_r) X(GEOSGeom_createCollection_r) \
    X(GEOSGeom_createPointFromXY_r) X(GEOSGeom_destroy_r) X(GEOSGeom_getCoordSeq_r) \
    X(GEOSGeom_getXMin_r) X(GEOSGeom_getYMin_r) X(GEOSGeom_getXMax_r) X(GEOSGeom_getYMax_r) \
    X(GEOSGeomTypeId_r) X(GEOSGeomType_r) X(GEOSisEmpty_r) X(GEOSisValid_r) X(GEOSisValidReason_r) \
    X(GEOSGetNumGeometries_r) X(GEOSGetGeometryN_r) X(GEOSGetExteriorRing_r) X(GEOSGetNumInteriorRings_r) \
    X(GEOSUnaryUnion_r) X(GEOSPrepare_r) X(GEOSPreparedGeom_destroy_r) X(GEOSPreparedCovers_r)

/// Pointers to the GEOS functions, each typed as geos_c.h declares it.
struct cgeos_api {
#define CGEOS_FIELD(name) __typeof__(&name) name;
    CGEOS_FUNCTIONS(CGEOS_FIELD)
#undef CGEOS_FIELD
};

/// Loads libgeos_c once; the table of its functions, or NULL when it cannot be loaded
/// (then `cgeos_load_error` says why).
const struct cgeos_api *cgeos_load(void);
const char *cgeos_load_error(void);

#endif
