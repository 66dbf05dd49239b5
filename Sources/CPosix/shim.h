// sched_getaffinity and CPU_COUNT are GNU extensions.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <stdint.h>
#include <errno.h>

// epoll_event is packed on x86-64 and its data is a union: these wrappers take and give plain
// values, so Swift never touches the struct's layout.
static inline int buoy_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline int buoy_epoll_control(int epoll, int operation, int fd, uint32_t events) {
    struct epoll_event event = { .events = events, .data = { .fd = fd } };
    return epoll_ctl(epoll, operation, fd, &event);
}

/// Waits like epoll_wait and unpacks each ready descriptor and its events into two arrays.
static inline int buoy_epoll_wait(int epoll, int *fds, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    int n = epoll_wait(epoll, ready, capacity, timeout_ms);
    for (int i = 0; i < n; i++) { fds[i] = ready[i].data.fd; events[i] = ready[i].events; }
    return n;
}

static const int buoy_epoll_add = EPOLL_CTL_ADD;
static const int buoy_epoll_modify = EPOLL_CTL_MOD;
static const int buoy_epoll_delete = EPOLL_CTL_DEL;
static const uint32_t buoy_epoll_in = EPOLLIN;
static const uint32_t buoy_epoll_out = EPOLLOUT;
static const uint32_t buoy_epoll_err = EPOLLERR;
static const uint32_t buoy_epoll_hup = EPOLLHUP;
static const uint32_t buoy_epoll_rdhup = EPOLLRDHUP;

static inline int buoy_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// How many CPUs this process may run on (its affinity mask); 1 if that cannot be read.
static inline int buoy_cpus_allowed(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int n = CPU_COUNT(&set);
    return n > 0 ? n : 1;
}
