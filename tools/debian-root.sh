# Sourced by the scripts that need a Debian root outside the checkout (.ci/swift60,
# tools/arm64-build, tools/deb-install-test): makes one with debootstrap, or reuses the cached one.
#
#   debian_root NAME SUITE ARCH MODE PACKAGE...   prints the root's path
#
# MODE "full" is a minbase system one can chroot into; MODE "unpacked" is debootstrap's first stage
# only (the packages unpacked, none configured), enough for a cross-compiling sysroot of another
# architecture and ~10x faster than running the second stage under emulation.
# Roots live in ${BUOY_ROOTS:-~/.cache/buoy/roots}, never in the repository; the downloaded .debs
# are kept in ~/.cache/buoy/debs so a second root of the same suite and architecture downloads
# little. A root is rebuilt when its package list changes. It is made under a temporary name and
# renamed into place, so an interrupted debootstrap never leaves a half root that looks usable.

buoy_roots="${BUOY_ROOTS:-$HOME/.cache/buoy/roots}"
buoy_mirror="${BUOY_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

debian_root() {
    local name="$1" suite="$2" arch="$3" mode="$4"; shift 4
    local root="$buoy_roots/$name" want
    want="$suite $arch $mode $(printf '%s\n' "$@" | sort | tr '\n' ' ')"
    if [ -f "$root/.buoy-root" ] && [ "$(cat "$root/.buoy-root")" = "$want" ]; then
        echo "$root"
        return 0
    fi
    command -v debootstrap >/dev/null || {
        . "$(dirname "${BASH_SOURCE[0]}")/../deploy/apt-missing.sh"
        install_missing debian-root debootstrap >&2
    }
    local debs="$HOME/.cache/buoy/debs/$suite-$arch" tmp="$root.tmp.$BASHPID" foreign=()
    [ "$mode" = unpacked ] && foreign=(--foreign)
    mkdir -p "$debs" "$buoy_roots"
    rm -rf "$tmp"
    local include=""
    # A full root gets its packages from apt inside it, which resolves virtual packages (some
    # -dev packages depend on them; debootstrap's own resolver stops there); an unpacked root
    # cannot run apt, so debootstrap includes them.
    [ "$mode" = unpacked ] && include="$(IFS=,; echo "$*")"
    echo "debian-root: debootstrap $suite/$arch ($mode) into $root with: $*" >&2
    local start=$SECONDS
    debootstrap --arch="$arch" --variant=minbase "${foreign[@]}" --cache-dir="$debs" \
        ${include:+--include="$include"} "$suite" "$tmp" "$buoy_mirror" >"$tmp.log" 2>&1 || {
        tail -n 20 "$tmp.log" >&2
        echo "debian-root: debootstrap failed (log: $tmp.log)" >&2
        return 1
    }
    if [ "$mode" = full ]; then
        in_root "$tmp" "$debs:/var/cache/apt/archives" -- env DEBIAN_FRONTEND=noninteractive \
            sh -c 'apt-get update -q && apt-get install -y -q --no-install-recommends "$@"' apt "$@" >>"$tmp.log" 2>&1 || {
            tail -n 20 "$tmp.log" >&2
            echo "debian-root: apt-get install in the root failed (log: $tmp.log)" >&2
            return 1
        }
        chroot "$tmp" apt-get clean
    else
        # The first stage unpacks only the required packages: unpack the rest it downloaded
        # (keeping merged /usr's directory symlinks, as debootstrap does).
        local deb
        for deb in "$tmp"/var/cache/apt/archives/*.deb; do
            dpkg-deb --fsys-tarfile "$deb" | tar -C "$tmp" -x --keep-directory-symlink -f - || return 1
        done
        rm -f "$tmp"/var/cache/apt/archives/*.deb
    fi
    echo "$want" > "$tmp/.buoy-root"
    rm -rf "$root" "$tmp.log"
    mv "$tmp" "$root"
    echo "debian-root: $root ready in $((SECONDS - start)) s, $(du -sh "$root" | cut -f1)" >&2
    echo "$root"
}

# Runs a command in a full root with /proc, /dev and the given bind mounts (HOST:TARGET[:ro]),
# unmounting them whatever happens.
#   in_root ROOT "SRC:DST" ... -- COMMAND...
in_root() {
    local root="$1"; shift
    local mounts=() m
    while [ "$1" != "--" ]; do mounts+=("$1"); shift; done
    shift
    local done_mounts=() status=0 i
    mount -t proc proc "$root/proc" && done_mounts+=("$root/proc")
    mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" && done_mounts+=("$root/dev")
    for m in "${mounts[@]}"; do
        local src="${m%%:*}" rest="${m#*:}" dst ro=""
        dst="${rest%%:*}"; [ "$rest" != "$dst" ] && ro="${rest#*:}"
        mkdir -p "$root$dst"
        mount --bind "$src" "$root$dst" || { status=1; break; }
        done_mounts+=("$root$dst")
        [ "$ro" = ro ] && mount -o remount,bind,ro "$root$dst"
    done
    if [ "$status" -eq 0 ]; then
        chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
            LANG=C.UTF-8 "$@" || status=$?
    fi
    for ((i = ${#done_mounts[@]} - 1; i >= 0; i--)); do umount -l "${done_mounts[$i]}" 2>/dev/null || true; done
    return "$status"
}

# The x86-64 trixie root with Debian's Swift 6.0.3 and Buoy's build dependencies, shared by
# .ci/swift60 (does the project still build with 6.0?) and tools/arm64-build (lld and the arm64
# binutils for the cross build, dpkg-dev for the package's dependencies).
buoy_trixie_build_packages=(swiftlang git ca-certificates pkg-config g++ libpng-dev zlib1g-dev libturbojpeg0-dev libwebp-dev
    libfreetype-dev libdrm-dev libcurl4-openssl-dev libevdev-dev libharfbuzz-dev libfontconfig-dev libfribidi-dev
    lld dpkg-dev binutils-aarch64-linux-gnu)

# The arm64 trixie root (unpacked only): the sysroot the cross build compiles and links against
# (the C libraries' headers, libc and libstdc++ the static Swift runtime needs, Debian's arm64
# Swift for its runtime, Foundation modules and swift_static), and what the arm64 virt board boots
# (Debian's arm64 kernel and modules, busybox for its initramfs).
buoy_arm64_sysroot_packages=(swiftlang libc6-dev libstdc++-14-dev libgcc-14-dev libpng-dev libfreetype-dev
    libdrm-dev libcurl4-openssl-dev libevdev-dev libharfbuzz-dev libfontconfig-dev libfribidi-dev zlib1g-dev
    libturbojpeg0-dev libwebp-dev linux-image-arm64 busybox-static kmod)
