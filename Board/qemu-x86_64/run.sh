#!/usr/bin/env bash
# Boots the board: Debian's kernel in qemu-system-x86_64 under TCG, no network, no window,
# the serial console to a log file and a QMP socket for screendumps and input.
#
#   run.sh INITRAMFS SERIAL_LOG QMP_SOCKET [GPU]     GPU: std (bochs-drm, default), virtio, or none (vkms only)
set -euo pipefail
initramfs="${1:?initramfs}"; serial="${2:?serial log}"; qmp="${3:?qmp socket}"; gpu="${4:-std}"
kernel="${BOARD_KERNEL:-$(ls /boot/vmlinuz-* | sort -V | tail -n 1)}"
case "$gpu" in
    std) video=(-vga std) ;;
    virtio) video=(-vga none -device virtio-gpu-pci) ;;
    none) video=(-vga none) ;;  # only vkms, when the initramfs loads it
    *) echo "run.sh: unknown GPU $gpu" >&2; exit 1 ;;
esac
exec qemu-system-x86_64 -machine q35 -accel tcg -m 512 -smp 1 \
    -kernel "$kernel" -initrd "$initramfs" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1" \
    "${video[@]}" -device virtio-keyboard-pci -device virtio-tablet-pci \
    -nic none -display none -no-reboot \
    -serial "file:$serial" -qmp "unix:$qmp,server=on,wait=off"
