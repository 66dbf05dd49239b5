#!/usr/bin/env bash
# The board checks of Board/qemu-x86_64 on arm64: Debian's arm64 kernel in
# `qemu-system-aarch64 -M virt -cpu cortex-a72` under TCG, with bochs-display and virtio-gpu, the
# arm64 buoy in the initramfs. The scripts are Board/qemu-x86_64's, parameterised (BOARD_ARCH,
# BOARD_SYSROOT, BOARD_KERNEL); the expected frames are drawn by an x86-64 buoy, which renders
# Boat_Loader pixel for pixel as the arm64 one does (tools/arm64-build checks it).
#
#   Board/qemu-aarch64/test.sh ARM64_BUOY ANIMATION HOST_BUOY [test.py options, e.g. --gpu virtio --keep DIR]
#
# tools/arm64-build --board builds ARM64_BUOY and runs this. The arm64 root (kernel, modules,
# busybox, libraries) is the cached one of tools/arm64-build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
arm64_buoy="${1:?usage: test.sh ARM64_BUOY ANIMATION HOST_BUOY}"
animation="${2:?animation}"
host_buoy="${3:?an x86-64 buoy for the expected frames}"
shift 3
. "$repo/tools/debian-root.sh"
. "$repo/deploy/apt-missing.sh"
install_missing qemu-aarch64-board qemu-system-arm cpio kmod xz-utils binutils
sysroot="$(debian_root trixie-arm64-sysroot trixie arm64 unpacked "${buoy_arm64_sysroot_packages[@]}")"
kver="$(ls "$sysroot/usr/lib/modules" | sort -V | tail -n 1)"
# The unpacked root never ran depmod; modinfo needs its tables to find modules by name.
[ -f "$sysroot/usr/lib/modules/$kver/modules.dep" ] || depmod -b "$sysroot" "$kver"
export BOARD_ARCH=aarch64 BOARD_SYSROOT="$sysroot" BOARD_KERNEL_VERSION="$kver" \
    BOARD_KERNEL="$sysroot/boot/vmlinuz-$kver" BOARD_BUOY="$arm64_buoy" \
    BOARD_TIMEOUT_SCALE="${BOARD_TIMEOUT_SCALE:-4}"
# test.py reads PNGs with Pillow: the fidelity venv's Python has it (.ci/fidelity makes it).
python="${BUOY_FIDELITY_VENV:-$HOME/.cache/buoy/fidelity-venv}/bin/python"
[ -x "$python" ] || python=python3
exec "$python" "$repo/Board/qemu-x86_64/test.py" "$arm64_buoy" "$animation" --only gpu --render-with "$host_buoy" "$@"
