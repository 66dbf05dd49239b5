#ifndef BUOY_CCURL_H
#define BUOY_CCURL_H
// libcurl for the Download module, opened with dlopen on first use rather than linked: a
// process that never downloads (buoy render, bench, play) does not map libcurl and its TLS,
// Kerberos and LDAP chain (about 7 MB resident and 5 ms of dynamic linking at every start).
// curl.h gives the types and constants; every function Buoy calls is one of the buoy_curl_*
// below, which resolve libcurl's on the first call (CurlLoader.c).
#include <curl/curl.h>

// NULL once libcurl is loaded (the call loads it); otherwise why it could not be: the
// library missing, or a function missing from it (too old). Every other function then
// fails as a handle libcurl refused would: NULL handles, CURLE_FAILED_INIT,
// CURLM_INTERNAL_ERROR.
const char *buoy_curl_unavailable(void);

CURLcode buoy_curl_global_init(long flags);
CURL *buoy_curl_easy_init(void);
void buoy_curl_easy_cleanup(CURL *h);
const char *buoy_curl_easy_strerror(CURLcode code);
CURLM *buoy_curl_multi_init(void);
CURLMcode buoy_curl_multi_cleanup(CURLM *m);
CURLMcode buoy_curl_multi_add_handle(CURLM *m, CURL *h);
CURLMcode buoy_curl_multi_remove_handle(CURLM *m, CURL *h);
CURLMsg *buoy_curl_multi_info_read(CURLM *m, int *queued);
CURLMcode buoy_curl_multi_perform(CURLM *m, int *running);
CURLMcode buoy_curl_multi_poll(CURLM *m, struct curl_waitfd *extra, unsigned int count, int timeoutMs, int *ready);
CURLMcode buoy_curl_multi_socket_action(CURLM *m, curl_socket_t socket, int mask, int *running);

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call: one typed function per kind of value.
CURLcode buoy_curl_set_long(CURL *h, CURLoption o, long v);
CURLcode buoy_curl_set_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode buoy_curl_set_ptr(CURL *h, CURLoption o, void *v);
CURLcode buoy_curl_set_str(CURL *h, CURLoption o, const char *v);
CURLcode buoy_curl_set_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *));
CURLcode buoy_curl_set_header(CURL *h, size_t (*f)(char *, size_t, size_t, void *));
CURLcode buoy_curl_set_progress(CURL *h, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode buoy_curl_get_long(CURL *h, CURLINFO i, long *v);
CURLcode buoy_curl_get_off(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode buoy_curl_get_ptr(CURL *h, CURLINFO i, void **v);
CURLMcode buoy_curl_multi_set_ptr(CURLM *m, CURLMoption o, void *v);
CURLMcode buoy_curl_multi_set_socketfn(CURLM *m, int (*f)(CURL *, curl_socket_t, int, void *, void *));
CURLMcode buoy_curl_multi_set_timerfn(CURLM *m, int (*f)(CURLM *, long, void *));

// The Download module's one system call without a libc wrapper: openat2 (Linux 5.6), which
// resolves a path beneath a directory without following symbolic links. -1 with errno ENOSYS
// on an older kernel (the caller then walks the path one O_NOFOLLOW component at a time).
#include <errno.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
static inline int buoy_openat2_beneath(int dirfd, const char *path, int flags) {
    struct open_how how = { .flags = (unsigned long long)flags, .mode = 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

#endif
