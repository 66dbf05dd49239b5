#!/usr/bin/env bash
# Installs the Debian packages Buoy builds against (the C libraries behind its .systemLibrary
# targets). Swift itself is expected at /opt/swift or on PATH.
set -euo pipefail
packages=(pkg-config libpng-dev libfreetype-dev libdrm-dev libcurl4-openssl-dev libevdev-dev fonts-dejavu-core)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-build-deps: installing ${missing[*]}" >&2
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
command -v swift >/dev/null || { echo "install-build-deps: swift is not on PATH (expected Swift 6.x, e.g. /opt/swift/usr/bin)" >&2; exit 1; }
