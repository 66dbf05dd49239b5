#!/usr/bin/env bash
# Builds an initramfs that boots straight into Buoy: busybox, the buoy binary (Swift
# runtime linked statically), the shared libraries ldd names, the DRM and virtio kernel
# modules of the host's Debian kernel (in dependency order: there is no udev), a sample
# animation and a scenario script that init runs.
#
#   [BOARD_BUOY=BINARY] build-initramfs.sh OUT_DIR SCENARIO.sh ANIMATION.json
#
# BOARD_SYSROOT=DIR takes busybox, the shared libraries and the kernel modules from a Debian root
# of another architecture instead of this machine (Board/qemu-aarch64: the arm64 root of
# tools/arm64-build); libraries are then found by their ELF NEEDED entries, as ldd cannot run
# a foreign binary.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${1:?usage: build-initramfs.sh OUT_DIR SCENARIO.sh ANIMATION.json}"
scenario="${2:?scenario script}"
animation="${3:?animation file}"
sysroot="${BOARD_SYSROOT:-}"
kver="${BOARD_KERNEL_VERSION:-$(ls "$sysroot/lib/modules" | sort -V | tail -n 1)}"

for tool in busybox cpio modinfo; do
    command -v "$tool" >/dev/null || { echo "build-initramfs: $tool is missing (run deploy/install-board-deps.sh)" >&2; exit 1; }
done

# BOARD_BUOY: a buoy binary to boot (built with --static-swift-stdlib, or the Swift runtime's
# ~100 MB of shared libraries go into the initramfs), e.g. one built from a snapshot while the
# working tree changes; by default the repository's is built.
if [ -n "${BOARD_BUOY:-}" ]; then
    buoy="$BOARD_BUOY"
    [ -x "$buoy" ] || { echo "build-initramfs: BOARD_BUOY=$buoy is not an executable" >&2; exit 1; }
else
    echo "build-initramfs: building buoy (static Swift runtime)" >&2
    (cd "$repo" && swift build -c release --static-swift-stdlib --product buoy 2>&1 | tail -n 2) >&2
    buoy="$(cd "$repo" && swift build -c release --static-swift-stdlib --show-bin-path)/buoy"
fi

root="$out/root"
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,modules,etc}
if [ -n "$sysroot" ]; then cp "$sysroot/usr/bin/busybox" "$root/bin/busybox"; else cp "$(command -v busybox)" "$root/bin/busybox"; fi
cp "$buoy" "$root/bin/buoy"
cp "$animation" "$root/animation.json"
cp "$scenario" "$root/scenario.sh"
cp "$here/init" "$root/init"
chmod +x "$root/init" "$root/scenario.sh"

# Shared libraries, at the paths the dynamic loader looks for them: those the binary names and
# those it opens with dlopen (deploy/debian/dlopen-libraries, e.g. libcurl when a download
# starts), each with what it needs in turn.
dlopened=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$repo/deploy/debian/dlopen-libraries")
if [ -z "$sysroot" ]; then
    elves=("$buoy")
    for soname in $dlopened; do
        # awk reads all of it: leaving early would end ldconfig with SIGPIPE, which pipefail reports.
        path="$(ldconfig -p | awk -v so="$soname" '$1 == so && path == "" { path = $NF } END { print path }')"
        [ -n "$path" ] || { echo "build-initramfs: $soname (dlopen-libraries) is not installed" >&2; exit 1; }
        elves+=("$path")
        mkdir -p "$root$(dirname "$path")"
        cp -L "$path" "$root$path"
    done
    for elf in "${elves[@]}"; do ldd "$elf"; done | awk '/=> \// { print $3 } /^[ \t]*\/lib/ { print $1 }' | sort -u | while read -r lib; do
        mkdir -p "$root$(dirname "$lib")"
        cp -L "$lib" "$root$lib"
    done
else
    # The interpreter, then every NEEDED library (recursively) from the root's multiarch directory.
    interp="$(readelf -l "$buoy" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')"
    multiarch="$(basename "$(dirname "$(readlink -f "$sysroot$interp")")")"
    mkdir -p "$root$(dirname "$interp")" "$root/usr/lib/$multiarch"
    cp -L "$sysroot$interp" "$root$interp"
    todo=("$buoy")
    declare -A copied=()
    first=1
    while [ ${#todo[@]} -gt 0 ]; do
        elf="${todo[0]}"; todo=("${todo[@]:1}")
        wanted="$(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
        # The binary's dlopen libraries come with its own NEEDED ones.
        [ -n "$first" ] && wanted="$wanted $dlopened"
        first=
        for lib in $wanted; do
            [ -n "${copied[$lib]:-}" ] && continue
            copied[$lib]=1
            src="$sysroot/usr/lib/$multiarch/$lib"
            [ -e "$src" ] || { echo "build-initramfs: $lib not in $sysroot/usr/lib/$multiarch" >&2; exit 1; }
            cp -L "$src" "$root/usr/lib/$multiarch/$lib"
            todo+=("$src")
        done
    done
    ln -s usr/lib "$root/lib"
fi

# Kernel modules: the display drivers and what they depend on, dependencies first.
declare -A seen=()
order=()
add_module() {
    local name="$1" file deps dep
    [ -n "${seen[$name]:-}" ] && return
    seen[$name]=1
    file="$(modinfo ${sysroot:+-b "$sysroot"} -k "$kver" -n "$name" 2>/dev/null)" || { echo "build-initramfs: no module $name for $kver" >&2; return; }
    [ "$file" = "(builtin)" ] && return
    deps="$(modinfo ${sysroot:+-b "$sysroot"} -k "$kver" -F depends "$name" | tr ',' ' ')"
    for dep in $deps; do add_module "$dep"; done
    case "$file" in
        *.ko.xz) xz -dc "$file" > "$root/modules/$name.ko" ;;
        *.ko.zst) zstd -dcq "$file" > "$root/modules/$name.ko" ;;
        *) cp "$file" "$root/modules/$name.ko" ;;
    esac
    order+=("$name")
}
for m in bochs virtio-gpu virtio_pci virtio_input evdev drm_shmem_helper; do add_module "$m"; done
# Out-of-tree modules (vkms) come last: their dependencies are in by then.
for extra in ${BOARD_EXTRA_MODULES:-}; do
    name="$(basename "$extra" .ko)"
    cp "$extra" "$root/modules/$name.ko"
    order+=("$name")
done
printf '%s\n' "${order[@]}" > "$root/modules/order"

# /dev/console must exist before devtmpfs is mounted, for init's output.
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true

(cd "$root" && find . | cpio -o -H newc --quiet) > "$out/initramfs.cpio"
echo "$out/initramfs.cpio"
