// libsystemd's readiness protocol (sd_notify), for Type=notify units.
#include <systemd/sd-daemon.h>
