#!/usr/bin/env bash
# Builds buoy_VERSION_ARCH.deb with dpkg-deb: the static-runtime binary, the systemd units
# (boot job, daemon, psplash replacement), the udev rules and an example config; postinst adds
# the buoy user the units run as (its group may use the control socket). Build on the target architecture (on a Raspberry Pi with Swift's aarch64
# toolchain for arm64); x86-64 is what CI tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
version="${1:-0.1.0}"
arch="$(dpkg --print-architecture)"
(cd "$repo" && swift build -c release --static-swift-stdlib --product buoy >&2)
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
chmod 0755 "$stage"
DESTDIR="$stage" bash "$here/install.sh"
mkdir -p "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: buoy
Version: $version
Architecture: $arch
Maintainer: Buoy developers
Depends: libpng16-16, libfreetype6, libdrm2, libcurl4, fonts-dejavu-core, passwd
Section: misc
Priority: optional
Description: Lottie download screen for embedded Linux
 Plays an animation straight to the display (DRM/KMS or fbdev) while a download runs;
 the water rises with the bytes received.
CONTROL
cat > "$stage/DEBIAN/conffiles" <<'CONF'
/etc/buoy/buoy.env
CONF
cat > "$stage/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    sh /usr/share/buoy/add-buoy-user.sh
    if [ -d /run/systemd/system ]; then
        systemd-tmpfiles --create /usr/lib/tmpfiles.d/buoy.conf || true
        systemctl daemon-reload || true
    fi
    udevadm control --reload 2>/dev/null || true
fi
POSTINST
chmod 0755 "$stage/DEBIAN/postinst"
out="$repo/buoy_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$stage" "$out" >&2
echo "$out"
