// Typed entry points into libcurl for Swift.
//
// curl_easy_setopt and curl_easy_getinfo are C variadics, which Swift cannot call: each wrapper
// here fixes one argument type. libcurl itself is loaded with dlopen on first use, so commands
// that never touch a server (the embedded wall) do not pay for loading its ~30 libraries at
// every start (docs/performance.md).
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

/// Loads libcurl and initialises it once; NULL on success, else why it could not be loaded.
const char *ccurl_load(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_reset(CURL *handle);
void ccurl_easy_cleanup(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
const char *ccurl_version(void);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *value);
void ccurl_slist_free_all(struct curl_slist *list);

#endif
