#!/usr/bin/env bash
# Installs what the virtual-machine board (Board/qemu-x86_64) needs: QEMU, Debian's kernel
# (its modules provide the DRM drivers), its headers and source with make and gcc to build vkms,
# busybox for the initramfs, cpio and kmod.
set -euo pipefail
. "$(dirname "$0")/apt-missing.sh"
install_missing install-board-deps qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1 make gcc \
    busybox-static cpio kmod xz-utils
