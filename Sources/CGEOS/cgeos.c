#include "CGEOS.h"

#include <dlfcn.h>
#include <pthread.h>

static struct cgeos_api api;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error;

static void load(void) {
    void *library = dlopen("libgeos_c.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libgeos_c.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_error = dlerror();
        return;
    }
#define CGEOS_RESOLVE(name) \
    if (!(*(void **)&api.name = dlsym(library, #name))) { load_error = "libgeos_c lacks " #name; return; }
    CGEOS_FUNCTIONS(CGEOS_RESOLVE)
#undef CGEOS_RESOLVE
}

const struct cgeos_api *cgeos_load(void) {
    pthread_once(&once, load);
    return load_error ? NULL : &api;
}

const char *cgeos_load_error(void) {
    pthread_once(&once, load);
    return load_error;
}
