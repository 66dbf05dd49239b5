#!/usr/bin/env bash
# Installs what the virtual-machine board (Board/qemu-x86_64) needs: QEMU, Debian's kernel
# (its modules provide the DRM drivers), its headers and source with make and gcc to build vkms,
# busybox for the initramfs, cpio and kmod.
set -euo pipefail
packages=(qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1 make gcc busybox-static cpio kmod xz-utils)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-board-deps: installing ${missing[*]}" >&2
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
