#!/usr/bin/env bash
# Builds the vkms driver (virtual KMS with a real 60 Hz vblank timer) out of tree from
# Debian's linux-source against linux-headers: Debian's kernel does not ship it, and it is the
# only driver in the board whose vblank paces like a real panel.
#
#   build-vkms.sh OUT_DIR        → OUT_DIR/vkms.ko
set -euo pipefail
out="${1:?usage: build-vkms.sh OUT_DIR}"
kver="${BOARD_KERNEL_VERSION:-$(ls /lib/modules | sort -V | tail -n 1)}"
tarball="$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)"
[ -n "$tarball" ] || { echo "build-vkms: no /usr/src/linux-source-*.tar.xz (run deploy/install-board-deps.sh)" >&2; exit 1; }
[ -d "/lib/modules/$kver/build" ] || { echo "build-vkms: no headers for $kver" >&2; exit 1; }
mkdir -p "$out"
if [ -f "$out/vkms.ko" ] && [ "$out/vkms.ko" -nt "$tarball" ]; then echo "$out/vkms.ko"; exit 0; fi
src="$out/vkms-src"
rm -rf "$src"; mkdir -p "$src"
top="$(basename "$tarball" .tar.xz)"
tar -xJf "$tarball" -C "$src" --strip-components=5 "$top/drivers/gpu/drm/vkms"
make -s -C "/lib/modules/$kver/build" M="$src" CONFIG_DRM_VKMS=m modules >&2
cp "$src/vkms.ko" "$out/vkms.ko"
echo "$out/vkms.ko"
