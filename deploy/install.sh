#!/usr/bin/env bash
# Installs a built buoy on this machine: the binary, the systemd unit, the udev rules and a
# sample environment file. Run from the checkout after `swift build -c release --static-swift-stdlib`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
bin="$(cd "$repo" && swift build -c release --static-swift-stdlib --show-bin-path)/buoy"
[ -x "$bin" ] || { echo "install: build first: swift build -c release --static-swift-stdlib" >&2; exit 1; }
prefix="${DESTDIR:-}"
install -D -m 0755 "$bin" "$prefix/usr/bin/buoy"
install -D -m 0644 "$here/systemd/buoy.service" "$prefix/lib/systemd/system/buoy.service"
install -D -m 0644 "$here/udev/70-buoy.rules" "$prefix/lib/udev/rules.d/70-buoy.rules"
if [ ! -e "$prefix/etc/buoy/buoy.env" ]; then
    install -D -m 0644 /dev/stdin "$prefix/etc/buoy/buoy.env" <<'ENV'
# Flags for `buoy run` at boot, e.g.:
# BUOY_ARGS=--url https://example.org/update.img --output /var/lib/update.img --sha256 <64 hex digits>
BUOY_ARGS=
ENV
fi
if [ -z "$prefix" ] && command -v systemctl >/dev/null; then
    systemctl daemon-reload
    udevadm control --reload 2>/dev/null || true
    echo "install: enable at boot with: systemctl enable buoy.service"
fi
