// GEOS's C API, reentrant functions only (one context handle per user of it).
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
