# Sourced by the scripts that need a Debian root outside the checkout (.ci/swift60,
# tools/arm64-build, tools/deb-install-test): makes one with debootstrap, or reuses the cached one.
#
#   debian_root NAME SUITE ARCH MODE PACKAGE...   prints the root's path
#
# MODE "full" is a minbase system one can chroot into (debootstrap, then apt inside it); MODE
# "unpacked" is the packages and their dependencies, resolved by this machine's apt and unpacked,
# none configured: enough for a cross-compiling sysroot of another architecture, and ~10x faster
# than running debootstrap's second stage under emulation.
# Roots live in ${BUOY_ROOTS:-~/.cache/buoy/roots}, never in the repository; the downloaded .debs
# are kept in ~/.cache/buoy/debs so a second root of the same suite and architecture downloads
# little. A full root gets packages added to its list installed in place; any other change
# rebuilds the root, under a temporary name renamed into place, so an interrupted run never
# leaves a half root that looks usable.

buoy_roots="${BUOY_ROOTS:-$HOME/.cache/buoy/roots}"
buoy_mirror="${BUOY_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

debian_root() {
    local name="$1" suite="$2" arch="$3" mode="$4"; shift 4
    local root="$buoy_roots/$name" want have
    want="$suite $arch $mode $(printf '%s\n' "$@" | sort | tr '\n' ' ')"
    have="$(cat "$root/.buoy-root" 2>/dev/null || true)"
    if [ "$have" = "$want" ] && { [ "$mode" = full ] || [ -f "$root/.buoy-libraries" ]; }; then
        echo "$root"
        return 0
    fi
    # A full root of the same suite, architecture and mode only lacks packages: apt adds them in
    # place (quick, and a build running in the root meanwhile keeps its files).
    if [ "$mode" = full ] && [ "${have%% *}" = "$suite" ] && [ "$(echo "$have" | cut -d' ' -f2-3)" = "$arch full" ]; then
        echo "debian-root: adding to $root: $*" >&2
        _debian_root_apt_install "$root" "$HOME/.cache/buoy/debs/$suite-$arch" "$@" >&2 || return 1
        echo "$want" > "$root/.buoy-root"
        echo "$root"
        return 0
    fi
    _debian_root_unmounted "$root" || return 1
    local debs="$HOME/.cache/buoy/debs/$suite-$arch" tmp="$root.tmp.$BASHPID"
    mkdir -p "$debs" "$buoy_roots"
    rm -rf "$tmp"
    echo "debian-root: making $suite/$arch ($mode) in $root with: $*" >&2
    local start=$SECONDS
    if [ "$mode" = full ]; then
        command -v debootstrap >/dev/null || {
            . "$(dirname "${BASH_SOURCE[0]}")/../deploy/apt-missing.sh"
            install_missing debian-root debootstrap >&2
        }
        debootstrap --arch="$arch" --variant=minbase --cache-dir="$debs" "$suite" "$tmp" "$buoy_mirror" \
            >"$tmp.log" 2>&1 || {
            tail -n 20 "$tmp.log" >&2
            echo "debian-root: debootstrap failed (log: $tmp.log)" >&2
            return 1
        }
        # apt inside the root resolves virtual packages (some -dev packages depend on them;
        # debootstrap's own resolver stops there).
        _debian_root_apt_install "$tmp" "$debs" "$@" >>"$tmp.log" 2>&1 || {
            tail -n 20 "$tmp.log" >&2
            echo "debian-root: apt-get install in the root failed (log: $tmp.log)" >&2
            return 1
        }
    else
        _debian_root_unpack "$tmp" "$suite" "$arch" "$debs" "$@" >"$tmp.log" 2>&1 || {
            tail -n 20 "$tmp.log" >&2
            echo "debian-root: unpacking the $arch packages failed (log: $tmp.log)" >&2
            return 1
        }
    fi
    echo "$want" > "$tmp/.buoy-root"
    rm -rf "$root" "$tmp.log"
    mv "$tmp" "$root"
    echo "debian-root: $root ready in $((SECONDS - start)) s, $(du -sh "$root" | cut -f1)" >&2
    echo "$root"
}

# apt-get install in a full root, its downloads kept in DEBS.
#   _debian_root_apt_install ROOT DEBS PACKAGE...
_debian_root_apt_install() {
    local root="$1" debs="$2"; shift 2
    mkdir -p "$debs/partial"
    in_root "$root" "$debs:/var/cache/apt/archives" -- env DEBIAN_FRONTEND=noninteractive \
        sh -c 'apt-get update -q && apt-get install -y -q --no-install-recommends "$@"' apt "$@" || return 1
    chroot "$root" apt-get clean
}

# A root about to be replaced must have nothing mounted inside: rm -rf would go through a bind
# mount of a checkout (a build running in the root) and delete it.
_debian_root_unmounted() {
    local root="$1"
    [ -d "$root" ] || return 0
    if awk -v r="$(readlink -f "$root")/" 'index($2 "/", r) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
        echo "debian-root: $root is in use (something is mounted inside it); not replacing it now" >&2
        return 1
    fi
}

# An "unpacked" root: apt on this machine, with a private configuration for SUITE/ARCH, resolves
# the packages' dependencies (virtual packages included), downloads them into DEBS, and each is
# unpacked into ROOT (merged /usr: bin, sbin and lib are links into usr, as debootstrap makes
# them). Nothing is configured and nothing of ARCH runs. ROOT/.buoy-libraries names the package
# of every shared library (PATH PACKAGE per line), as the dpkg database of a real root would.
#   _debian_root_unpack ROOT SUITE ARCH DEBS PACKAGE...
_debian_root_unpack() {
    local root="$1" suite="$2" arch="$3" debs="$4"; shift 4
    local state="$HOME/.cache/buoy/apt/$suite-$arch"
    mkdir -p "$state/lists/partial" "$state/parts" "$debs/partial" "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib"
    : > "$state/status"
    echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $buoy_mirror $suite main" \
        > "$state/sources.list"
    local apt=(apt-get -q -o "Dir::Etc::SourceList=$state/sources.list" -o "Dir::Etc::SourceParts=$state/parts"
        -o "Dir::Etc::Preferences=$state/preferences" -o "Dir::Etc::PreferencesParts=$state/parts"
        -o "Dir::State=$state" -o "Dir::State::status=$state/status" -o "Dir::Cache=$state"
        -o "Dir::Cache::archives=$debs/" -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
        -o APT::Sandbox::User=root -o APT::Install-Recommends=false)
    "${apt[@]}" update || return 1
    "${apt[@]}" install -y --download-only "$@" || return 1
    ln -sfn usr/bin "$root/bin"; ln -sfn usr/sbin "$root/sbin"; ln -sfn usr/lib "$root/lib"
    # apt's plan names each package, version and architecture: exactly the files to unpack.
    local pkg version parch deb count=0
    "${apt[@]}" install -s "$@" | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) [^[]*\[\([^]]*\)\]).*$/\1 \2 \3/p' > "$root/.buoy-plan"
    : > "$root/.buoy-libraries"
    while read -r pkg version parch; do
        deb="$debs/${pkg}_${version//:/%3a}_$parch.deb"
        [ -f "$deb" ] || { echo "debian-root: apt planned $pkg $version but $deb is missing" >&2; return 1; }
        dpkg-deb --fsys-tarfile "$deb" | tar -C "$root" -x -v --keep-directory-symlink -f - |
            sed -n "s|^\./||; /\.so\(\.[0-9.]*\)\?\$/ s|\$| $pkg|p" >> "$root/.buoy-libraries" || return 1
        count=$((count + 1))
    done < "$root/.buoy-plan"
    [ "$count" -gt 0 ] || { echo "debian-root: apt planned no packages" >&2; return 1; }
    echo "debian-root: unpacked $count packages" >&2
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
    libsystemd-dev lld dpkg-dev binutils-aarch64-linux-gnu)

# The arm64 trixie root (unpacked only): the sysroot the cross build compiles and links against
# (the C libraries' headers, libc and libstdc++ the static Swift runtime needs, Debian's arm64
# Swift for its runtime, Foundation modules and swift_static), and what the arm64 virt board boots
# (Debian's arm64 kernel and modules, busybox for its initramfs). libsystemd-dev: readiness
# notification to systemd (sd_notify).
buoy_arm64_sysroot_packages=(swiftlang libc6-dev libstdc++-14-dev libgcc-14-dev libpng-dev libfreetype-dev
    libdrm-dev libcurl4-openssl-dev libevdev-dev libharfbuzz-dev libfontconfig-dev libfribidi-dev zlib1g-dev
    libturbojpeg0-dev libwebp-dev libsystemd-dev linux-image-arm64 busybox-static kmod)
