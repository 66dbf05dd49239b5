#include <libevdev/libevdev.h>
#include <sys/inotify.h>

static const unsigned int buoy_libevdev_read_normal = LIBEVDEV_READ_FLAG_NORMAL;
static const unsigned int buoy_libevdev_read_sync = LIBEVDEV_READ_FLAG_SYNC;
