#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>

// The libcurl functions anywall uses, resolved from the shared library at first use.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    char *(*version)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error;

static void load(void) {
    // libcurl4-openssl-dev and libcurl4-gnutls-dev both provide soname 4.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_error = dlerror();
        return;
    }
#define RESOLVE(field, symbol) \
    if (!(*(void **)&api.field = dlsym(library, symbol))) { load_error = "libcurl lacks " symbol; return; }
    RESOLVE(global_init, "curl_global_init")
    RESOLVE(easy_init, "curl_easy_init")
    RESOLVE(easy_reset, "curl_easy_reset")
    RESOLVE(easy_cleanup, "curl_easy_cleanup")
    RESOLVE(easy_perform, "curl_easy_perform")
    RESOLVE(easy_strerror, "curl_easy_strerror")
    RESOLVE(version, "curl_version")
    RESOLVE(easy_setopt, "curl_easy_setopt")
    RESOLVE(easy_getinfo, "curl_easy_getinfo")
    RESOLVE(slist_append, "curl_slist_append")
    RESOLVE(slist_free_all, "curl_slist_free_all")
#undef RESOLVE
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) load_error = "curl_global_init failed";
}

const char *ccurl_load(void) {
    pthread_once(&once, load);
    return load_error;
}

CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_reset(CURL *handle) { api.easy_reset(handle); }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
const char *ccurl_version(void) { return api.version(); }

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return api.easy_getinfo(handle, info, value); }

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *value) { return api.slist_append(list, value); }
void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }
