#!/usr/bin/env bash
# Boots the board: Debian's kernel in qemu-system-x86_64 under TCG, no network, no window,
# the serial console to a log file and a QMP socket for screendumps and input.
#
#   run.sh INITRAMFS SERIAL_LOG QMP_SOCKET [GPU]     GPU: std (bochs-drm, default), virtio, or none (vkms only)
set -euo pipefail
initramfs="${1:?initramfs}"; serial="${2:?serial log}"; qmp="${3:?qmp socket}"; gpu="${4:-std}"
# BOARD_ARCH=aarch64 boots Debian's arm64 kernel (BOARD_KERNEL) on QEMU's virt board with a
# Cortex-A72; there GPU std is bochs-display (the same bochs DRM driver on a PCI device).
kernel="${BOARD_KERNEL:-$(ls /boot/vmlinuz-* | sort -V | tail -n 1)}"
arch="${BOARD_ARCH:-x86_64}"
case "$arch:$gpu" in
    x86_64:std) video=(-vga std) ;;
    aarch64:std) video=(-device bochs-display) ;;
    x86_64:virtio) video=(-vga none -device virtio-gpu-pci) ;;
    aarch64:virtio) video=(-device virtio-gpu-pci) ;;
    x86_64:none) video=(-vga none) ;;  # only vkms, when the initramfs loads it
    aarch64:none) video=() ;;
    *) echo "run.sh: unknown GPU $gpu for $arch" >&2; exit 1 ;;
esac
case "$arch" in
    x86_64) machine=(qemu-system-x86_64 -machine q35 -m 512); console=ttyS0 ;;
    aarch64) machine=(qemu-system-aarch64 -machine virt -cpu cortex-a72 -m 1024); console=ttyAMA0 ;;
    *) echo "run.sh: unknown BOARD_ARCH $arch" >&2; exit 1 ;;
esac
exec "${machine[@]}" -accel tcg -smp 1 \
    -kernel "$kernel" -initrd "$initramfs" \
    -append "console=$console quiet loglevel=3 panic=-1" \
    "${video[@]}" -device virtio-keyboard-pci -device virtio-tablet-pci \
    -nic none -display none -no-reboot \
    -serial "file:$serial" -qmp "unix:$qmp,server=on,wait=off"
