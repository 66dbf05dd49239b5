// libcurl's functions, resolved once with dlopen/dlsym (see CCurl.h for why it is not linked).
#define _GNU_SOURCE
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

// The library's soname, as libcurl4 / libcurl4t64 install it. BUOY_LIBCURL names another
// file (honoured only when the process runs with its own identity: secure_getenv).
static const char *const default_library = "libcurl.so.4";

struct curl_functions {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_socket_action)(CURLM *, curl_socket_t, int, int *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
};

static const struct { const char *name; size_t offset; } symbols[] = {
    { "curl_global_init", offsetof(struct curl_functions, global_init) },
    { "curl_easy_init", offsetof(struct curl_functions, easy_init) },
    { "curl_easy_cleanup", offsetof(struct curl_functions, easy_cleanup) },
    { "curl_easy_strerror", offsetof(struct curl_functions, easy_strerror) },
    { "curl_easy_setopt", offsetof(struct curl_functions, easy_setopt) },
    { "curl_easy_getinfo", offsetof(struct curl_functions, easy_getinfo) },
    { "curl_multi_init", offsetof(struct curl_functions, multi_init) },
    { "curl_multi_cleanup", offsetof(struct curl_functions, multi_cleanup) },
    { "curl_multi_add_handle", offsetof(struct curl_functions, multi_add_handle) },
    { "curl_multi_remove_handle", offsetof(struct curl_functions, multi_remove_handle) },
    { "curl_multi_info_read", offsetof(struct curl_functions, multi_info_read) },
    { "curl_multi_perform", offsetof(struct curl_functions, multi_perform) },
    { "curl_multi_poll", offsetof(struct curl_functions, multi_poll) },
    { "curl_multi_socket_action", offsetof(struct curl_functions, multi_socket_action) },
    { "curl_multi_setopt", offsetof(struct curl_functions, multi_setopt) },
};

// Written once, inside pthread_once, and only read afterwards: the process has one libcurl.
static struct curl_functions curl;
static int curl_loaded;
static char load_error[512];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    const char *path = secure_getenv("BUOY_LIBCURL");
    if (path == NULL || *path == 0) path = default_library;
    // Never closed: libcurl and the TLS library it brings register process-wide state.
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "libcurl could not be loaded: %s", why ? why : path);
        return;
    }
    struct curl_functions found;
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *function = dlsym(library, symbols[i].name);
        if (function == NULL) {
            snprintf(load_error, sizeof load_error, "%s has no %s (libcurl 7.66 or newer is needed)", path, symbols[i].name);
            return;
        }
        // POSIX guarantees a function pointer round-trips through void * (dlsym's contract).
        *(void **)((char *)&found + symbols[i].offset) = function;
    }
    curl = found;
    curl_loaded = 1;
}

static int loaded(void) {
    pthread_once(&load_once, load);
    return curl_loaded;
}

const char *buoy_curl_unavailable(void) { return loaded() ? NULL : load_error; }

CURLcode buoy_curl_global_init(long flags) { return loaded() ? curl.global_init(flags) : CURLE_FAILED_INIT; }
CURL *buoy_curl_easy_init(void) { return loaded() ? curl.easy_init() : NULL; }
void buoy_curl_easy_cleanup(CURL *h) { if (loaded() && h) curl.easy_cleanup(h); }
const char *buoy_curl_easy_strerror(CURLcode code) { return loaded() ? curl.easy_strerror(code) : load_error; }
CURLM *buoy_curl_multi_init(void) { return loaded() ? curl.multi_init() : NULL; }

// A multi handle exists only once libcurl is loaded: NULL is the handle of a library that is not.
CURLMcode buoy_curl_multi_cleanup(CURLM *m) { return m ? curl.multi_cleanup(m) : CURLM_BAD_HANDLE; }
CURLMcode buoy_curl_multi_add_handle(CURLM *m, CURL *h) { return m ? curl.multi_add_handle(m, h) : CURLM_BAD_HANDLE; }
CURLMcode buoy_curl_multi_remove_handle(CURLM *m, CURL *h) { return m ? curl.multi_remove_handle(m, h) : CURLM_BAD_HANDLE; }
CURLMsg *buoy_curl_multi_info_read(CURLM *m, int *queued) {
    if (m) return curl.multi_info_read(m, queued);
    *queued = 0;
    return NULL;
}
CURLMcode buoy_curl_multi_perform(CURLM *m, int *running) {
    if (m) return curl.multi_perform(m, running);
    *running = 0;
    return CURLM_BAD_HANDLE;
}
CURLMcode buoy_curl_multi_poll(CURLM *m, struct curl_waitfd *extra, unsigned int count, int timeoutMs, int *ready) {
    if (m) return curl.multi_poll(m, extra, count, timeoutMs, ready);
    *ready = 0;
    return CURLM_BAD_HANDLE;
}
CURLMcode buoy_curl_multi_socket_action(CURLM *m, curl_socket_t socket, int mask, int *running) {
    if (m) return curl.multi_socket_action(m, socket, mask, running);
    *running = 0;
    return CURLM_BAD_HANDLE;
}

// An easy handle, likewise, exists only once libcurl is loaded.
CURLcode buoy_curl_set_long(CURL *h, CURLoption o, long v) { return h ? curl.easy_setopt(h, o, v) : CURLE_FAILED_INIT; }
CURLcode buoy_curl_set_off(CURL *h, CURLoption o, curl_off_t v) { return h ? curl.easy_setopt(h, o, v) : CURLE_FAILED_INIT; }
CURLcode buoy_curl_set_ptr(CURL *h, CURLoption o, void *v) { return h ? curl.easy_setopt(h, o, v) : CURLE_FAILED_INIT; }
CURLcode buoy_curl_set_str(CURL *h, CURLoption o, const char *v) { return h ? curl.easy_setopt(h, o, v) : CURLE_FAILED_INIT; }
CURLcode buoy_curl_set_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return h ? curl.easy_setopt(h, CURLOPT_WRITEFUNCTION, f) : CURLE_FAILED_INIT;
}
CURLcode buoy_curl_set_header(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return h ? curl.easy_setopt(h, CURLOPT_HEADERFUNCTION, f) : CURLE_FAILED_INIT;
}
CURLcode buoy_curl_set_progress(CURL *h, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return h ? curl.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f) : CURLE_FAILED_INIT;
}
CURLcode buoy_curl_get_long(CURL *h, CURLINFO i, long *v) { return h ? curl.easy_getinfo(h, i, v) : CURLE_FAILED_INIT; }
CURLcode buoy_curl_get_off(CURL *h, CURLINFO i, curl_off_t *v) { return h ? curl.easy_getinfo(h, i, v) : CURLE_FAILED_INIT; }
CURLcode buoy_curl_get_ptr(CURL *h, CURLINFO i, void **v) { return h ? curl.easy_getinfo(h, i, v) : CURLE_FAILED_INIT; }
CURLMcode buoy_curl_multi_set_ptr(CURLM *m, CURLMoption o, void *v) { return m ? curl.multi_setopt(m, o, v) : CURLM_BAD_HANDLE; }
CURLMcode buoy_curl_multi_set_socketfn(CURLM *m, int (*f)(CURL *, curl_socket_t, int, void *, void *)) {
    return m ? curl.multi_setopt(m, CURLMOPT_SOCKETFUNCTION, f) : CURLM_BAD_HANDLE;
}
CURLMcode buoy_curl_multi_set_timerfn(CURLM *m, int (*f)(CURLM *, long, void *)) {
    return m ? curl.multi_setopt(m, CURLMOPT_TIMERFUNCTION, f) : CURLM_BAD_HANDLE;
}
