#include <unistd.h>
#include <sys/syscall.h>
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
/// The raw system call, not glibc's sched_getaffinity: that needs _GNU_SOURCE, and defining it
/// in this module makes its system headers disagree with other modules' (fd_set in CDispatch).
static inline int buoy_cpus_allowed(void) {
    unsigned long mask[16] = { 0 };  /* 1024 CPUs */
    long bytes = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (bytes <= 0) return 1;
    int n = 0;
    for (long i = 0; i < bytes / (long)sizeof mask[0]; i++) n += __builtin_popcountl(mask[i]);
    return n > 0 ? n : 1;
}

// systemd's readiness protocol (sd_notify(3)): STATE as one datagram to the AF_UNIX socket
// ADDRESS names ("/run/systemd/notify", or "@name" for an abstract socket). 0 when sent, -1
// with errno set (EINVAL: an address that is neither, or longer than sun_path holds).
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
static inline int buoy_notify_datagram(const char *address, const char *state, size_t length) {
    struct sockaddr_un to = { .sun_family = AF_UNIX };
    size_t n = strlen(address);
    if (n < 2 || n >= sizeof to.sun_path || (address[0] != '/' && address[0] != '@')) { errno = EINVAL; return -1; }
    memcpy(to.sun_path, address, n);
    if (address[0] == '@') to.sun_path[0] = 0;
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (address[0] == '/' ? 1 : 0));
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t sent;
    do { sent = sendto(fd, state, length, MSG_NOSIGNAL, (const struct sockaddr *)&to, size); } while (sent < 0 && errno == EINTR);
    int saved = errno;
    close(fd);
    errno = saved;
    return sent == (ssize_t)length ? 0 : -1;
}

#include <malloc.h>

/// Sets glibc's mmap and trim thresholds (see Posix.AllocatorTuning); 1 on success.
static inline int buoy_keep_heap(int mmap_threshold, int trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) && mallopt(M_TRIM_THRESHOLD, trim_threshold);
}

/// How many blocks the allocator holds as mappings of their own (mallinfo2's hblks).
static inline long buoy_mapped_blocks(void) { return (long)mallinfo2().hblks; }
