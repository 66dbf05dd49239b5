#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <sys/ioctl.h>
#include <poll.h>

// ioctl request numbers built by macros, as constants Swift can import.
static const unsigned long buoy_fbioget_vscreeninfo = FBIOGET_VSCREENINFO;
static const unsigned long buoy_fbioput_vscreeninfo = FBIOPUT_VSCREENINFO;
static const unsigned long buoy_fbioget_fscreeninfo = FBIOGET_FSCREENINFO;
static const unsigned long buoy_fbiopan_display = FBIOPAN_DISPLAY;
static const unsigned long buoy_fbio_waitforvsync = FBIO_WAITFORVSYNC;
static const unsigned long buoy_kdsetmode = KDSETMODE;
static const unsigned long buoy_kdgetmode = KDGETMODE;
static const int buoy_kd_graphics = KD_GRAPHICS;
static const int buoy_kd_text = KD_TEXT;

// ioctl is variadic in C; these fixed-argument wrappers are callable from Swift.
static inline int buoy_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
static inline int buoy_ioctl_int(int fd, unsigned long request, int arg) { return ioctl(fd, request, arg); }

#include <sys/socket.h>
#include <unistd.h>

// SO_PEERCRED's struct ucred needs _GNU_SOURCE, which Swift's Glibc module is built without.
struct buoy_ucred { pid_t pid; uid_t uid; gid_t gid; };
static inline int buoy_peer_credentials(int fd, uid_t *uid, gid_t *gid) {
    struct buoy_ucred cred;
    socklen_t length = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, 17 /* SO_PEERCRED */, &cred, &length) != 0) return -1;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}
