#!/usr/bin/env bash
# Installs the Debian packages Buoy builds against (the C libraries behind its .systemLibrary
# targets) and Python for the test servers and scorers. Swift itself is expected at /opt/swift
# or on PATH.
set -euo pipefail
. "$(dirname "$0")/apt-missing.sh"
install_missing install-build-deps pkg-config libpng-dev zlib1g-dev libturbojpeg0-dev libwebp-dev libfreetype-dev libdrm-dev libcurl4-openssl-dev libevdev-dev libsystemd-dev \
    libharfbuzz-dev libfontconfig-dev libfribidi-dev fonts-wqy-zenhei fonts-urw-base35 \
    fonts-dejavu-core python3 python3-venv openssl \
    g++ `# libstdc++: headers for TOMLKit (toml++, the tests' TOML reference), libstdc++.a for the .deb` \
    systemd util-linux passwd swupdate cpio  # swupdate and cpio: SWUpdate drives the psplash FIFO in PsplashTests; systemd-analyze (unit checks), setpriv and prlimit, useradd (the daemon tests' users)
# SWUpdate is installed for PsplashTests only (its programs drive the psplash FIFO there): the
# package enables a root daemon listening on a socket, which a build machine does not want.
if [ -e /lib/systemd/system/swupdate.service ] && command -v systemctl >/dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo systemctl disable --quiet swupdate.socket swupdate.service swupdate-progress.service 2>/dev/null || true
fi
command -v swift >/dev/null || { echo "install-build-deps: swift is not on PATH (expected Swift 6.x, e.g. /opt/swift/usr/bin)" >&2; exit 1; }
