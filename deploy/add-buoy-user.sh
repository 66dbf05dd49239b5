#!/bin/sh
# Creates the buoy system user and group the units run as (idempotent), and adds the user to
# the groups that own the display and input devices (video, render, input: those that exist).
# Members of the buoy group may use the daemon's control socket. Run as root by install.sh and
# by the .deb's postinst.
set -e
getent group buoy >/dev/null || groupadd --system buoy
if ! getent passwd buoy >/dev/null; then
    useradd --system --gid buoy --home-dir /var/lib/buoy --no-create-home --shell /usr/sbin/nologin \
        --comment "Buoy download screen" buoy
fi
for group in video render input; do
    if getent group "$group" >/dev/null; then usermod -a -G "$group" buoy; fi
done
