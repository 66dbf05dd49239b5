#!/usr/bin/env bash
# Installs a built buoy on this machine: the binary, the systemd units (buoy.service, the boot
# job that exits and hands over; buoy-daemon.service, the operator's daemon started after it;
# buoy-psplash.service, psplash's protocol instead of the boot job), the udev rules, the
# tmpfiles entries (psplash FIFO, socket link), the polkit rule for --on-complete reboot, the
# buoy user the units run as (its group may use the control socket), an example config and an
# environment file.
# Run from the checkout after `swift build -c release --static-swift-stdlib`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
# BUOY_BINARY: a binary built elsewhere (deploy/build-deb.sh, a cross build).
bin="${BUOY_BINARY:-$(cd "$repo" && swift build -c release --static-swift-stdlib --show-bin-path)/buoy}"
[ -x "$bin" ] || { echo "install: build first: swift build -c release --static-swift-stdlib" >&2; exit 1; }
prefix="${DESTDIR:-}"
install -D -m 0755 "$bin" "$prefix/usr/bin/buoy"
for unit in buoy.service buoy-daemon.service buoy-psplash.service; do
    install -D -m 0644 "$here/systemd/$unit" "$prefix/lib/systemd/system/$unit"
done
install -D -m 0644 "$here/udev/70-buoy.rules" "$prefix/lib/udev/rules.d/70-buoy.rules"
install -D -m 0644 "$here/tmpfiles/buoy.conf" "$prefix/usr/lib/tmpfiles.d/buoy.conf"
install -D -m 0644 "$here/polkit/50-buoy-reboot.rules" "$prefix/usr/share/polkit-1/rules.d/50-buoy-reboot.rules"
install -D -m 0755 "$here/add-buoy-user.sh" "$prefix/usr/share/buoy/add-buoy-user.sh"
install -D -m 0644 "$here/buoy.toml.example" "$prefix/usr/share/doc/buoy/buoy.toml.example"
if [ ! -e "$prefix/etc/buoy/buoy.env" ]; then
    install -D -m 0644 /dev/stdin "$prefix/etc/buoy/buoy.env" <<'ENV'
# Extra flags for the units (the downloads themselves go in /etc/buoy/buoy.toml):
# BUOY_ARGS for the boot job buoy.service, e.g. --rotate 90 --max-retries 3
BUOY_ARGS=
# BUOY_DAEMON_ARGS for buoy-daemon.service, e.g. --trigger input
BUOY_DAEMON_ARGS=
# BUOY_PSPLASH_ARGS for buoy-psplash.service
BUOY_PSPLASH_ARGS=
ENV
fi
if [ -z "$prefix" ]; then
    # The units run as the buoy user; members of the buoy group may use the daemon's control
    # socket (/run/buoy/buoy.sock, linked from /run/buoy.sock).
    sh "$here/add-buoy-user.sh"
    if command -v systemctl >/dev/null; then
        systemd-tmpfiles --create /usr/lib/tmpfiles.d/buoy.conf 2>/dev/null || true
        systemctl daemon-reload
        udevadm control --reload 2>/dev/null || true
        echo "install: put the downloads in /etc/buoy/buoy.toml (see /usr/share/doc/buoy/buoy.toml.example), then"
        echo "install:   systemctl enable buoy.service              # the download screen at boot, then the console"
        echo "install:   systemctl enable buoy-daemon.service       # and/or the operator's daemon after it (buoy fetch over ssh)"
    fi
fi
