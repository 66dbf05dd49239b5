#!/usr/bin/env bash
# Builds buoy_VERSION_ARCH.deb: the stripped binary (Swift runtime linked in statically), the
# systemd units, the udev rules, an example config, the buoy system user, man pages and shell
# completions generated from the argument parser, the copyright and changelog; Depends computed
# by dpkg-shlibdeps from the binary's libraries. Prints the .deb's path.
#
#   deploy/build-deb.sh [--out DIR] [--arch ARCH --binary BUOY --help-from RUNNABLE_BUOY]
#
# Without options it builds with the `swift` on PATH for this machine's architecture. A cross
# build (tools/arm64-build) passes the cross-compiled binary, its Debian architecture and a buoy
# that runs here, built from the same source, to generate the man pages and completions.
# The .deb is assembled in a temporary directory and renamed into place: a reader of the output
# directory never sees a partial package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
out="$repo" arch="" binary="" help_from=""
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --arch) arch="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        --help-from) help_from="$2"; shift 2 ;;
        *) echo "build-deb: unknown option $1 (see the comment at the top of $0)" >&2; exit 1 ;;
    esac
done

# The version is written once, in Sources/buoy/Version.swift; the changelog's top entry must
# be that version with a Debian revision.
upstream="$(sed -n 's/^let buoyVersion = "\([^"]*\)"$/\1/p' "$repo/Sources/buoy/Version.swift")"
version="$(sed -n '1s/^buoy (\([^)]*\)).*/\1/p' "$here/debian/changelog")"
[ -n "$upstream" ] || { echo "build-deb: no buoyVersion in Sources/buoy/Version.swift" >&2; exit 1; }
case "$version" in
    "$upstream"-*) ;;
    *) echo "build-deb: deploy/debian/changelog is at '$version', Version.swift at '$upstream': add a changelog entry" >&2; exit 1 ;;
esac

if [ -z "$binary" ]; then
    arch="$(dpkg --print-architecture)"
    # Full RELRO (bind now), as Debian's hardening flags ask of every binary. Each function in
    # a section of its own, and lld puts the ones a command that draws runs (deploy/buoy.order,
    # made by tools/startup-order) together at the front of .text: the kernel maps code 64 KB
    # around each fault, so scattered they made ~9 MB of it resident in every process. Relative
    # relocations packed (DT_RELR, glibc 2.36): the loader no longer reads 1.9 MB of them.
    # libstdc++ linked statically (deploy/static-libstdc++ explains how). The functions that
    # have no symbol for the order file together (deploy/unnamed-text.lds). No dynamic symbol
    # table of our own functions (swiftc links executables with -export-dynamic): nothing looks
    # them up, and its ~0.4 MB (.dynsym, .dynstr, .gnu.hash) was read into every process.
    flags=(-c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld
           -Xswiftc -L -Xswiftc "$repo/deploy/static-libstdc++"
           -Xlinker "--symbol-ordering-file=$repo/deploy/buoy.order" -Xlinker --no-warn-symbol-ordering
           -Xlinker -T -Xlinker "$repo/deploy/unnamed-text.lds" -Xlinker --no-export-dynamic
           -Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
    (cd "$repo" && swift build "${flags[@]}" --product buoy >&2)
    binary="$(cd "$repo" && swift build "${flags[@]}" --show-bin-path)/buoy"
fi
[ -n "$arch" ] || { echo "build-deb: --binary needs --arch" >&2; exit 1; }
[ -x "$binary" ] || { echo "build-deb: no binary at $binary" >&2; exit 1; }
help_from="${help_from:-$binary}"
host_gnu="$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)"
strip_tool=strip
[ "$arch" = "$(dpkg --print-architecture)" ] || strip_tool="$host_gnu-strip"

mkdir -p "$out"
work="$(mktemp -d "$out/.buoy-deb.XXXXXX")"
trap 'rm -rf "$work"' EXIT
stage="$work/root"
mkdir -p "$stage"
chmod 0755 "$stage"

# The files install.sh puts on a machine, then the binary this package is for.
BUOY_BINARY="$binary" DESTDIR="$stage" bash "$here/install.sh" >&2
# Debian installs under /usr (merged /usr): units and rules go to /usr/lib, which systemd and
# udev read on every release.
if [ -d "$stage/lib" ]; then
    mkdir -p "$stage/usr/lib"
    cp -a "$stage/lib/." "$stage/usr/lib/"
    rm -rf "$stage/lib"
fi
install -m 0755 "$binary" "$stage/usr/bin/buoy"
# What dh_strip does: no symbol table, no comment or note sections (the Swift metadata the
# runtime reads is in allocated sections and stays).
"$strip_tool" --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/buoy"

# The system user the units run the socket for (its group may use the control socket).
install -D -m 0644 "$here/debian/buoy.sysusers" "$stage/usr/lib/sysusers.d/buoy.conf"

doc="$stage/usr/share/doc/buoy"
install -D -m 0644 "$here/debian/copyright" "$doc/copyright"
install -D -m 0644 "$here/debian/lintian-overrides" "$stage/usr/share/lintian/overrides/buoy"
gzip -9n < "$here/debian/changelog" > "$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"

# Man pages and completions from the argument parser itself, so they list what the binary takes.
mkdir -p "$stage/usr/share/man/man1"
"$help_from" --experimental-dump-help > "$work/help.json"
python3 "$repo/tools/gen-man.py" "$work/help.json" "$stage/usr/share/man/man1" "$version" \
    "$(date -u -d "$(sed -n 's/^ -- .*>  //p' "$here/debian/changelog" | head -n 1)" +%Y-%m-%d)"
gzip -9n "$stage"/usr/share/man/man1/*.1
install -d "$stage/usr/share/bash-completion/completions" "$stage/usr/share/zsh/vendor-completions" \
    "$stage/usr/share/fish/vendor_completions.d"
# A completion file is sourced, not run: no #! line.
"$help_from" --generate-completion-script bash | sed '1{/^#!/d}' > "$stage/usr/share/bash-completion/completions/buoy"
"$help_from" --generate-completion-script zsh > "$stage/usr/share/zsh/vendor-completions/_buoy"
"$help_from" --generate-completion-script fish > "$stage/usr/share/fish/vendor_completions.d/buoy.fish"
chmod 0644 "$stage"/usr/share/*/completions/buoy "$stage"/usr/share/zsh/vendor-completions/_buoy \
    "$stage"/usr/share/fish/vendor_completions.d/buoy.fish

# Depends: what dpkg-shlibdeps finds for the binary's shared libraries, plus the font the
# status line falls back to.
mkdir -p "$work/src/debian" "$stage/DEBIAN"
cat > "$work/src/debian/control" <<CONTROL
Source: buoy

Package: buoy
Architecture: $arch
CONTROL
shlibs="$(cd "$work/src" && DEB_HOST_ARCH="$arch" dpkg-shlibdeps -O -e"$stage/usr/bin/buoy" 2>"$work/shlibdeps.log")" || {
    cat "$work/shlibdeps.log" >&2; exit 1; }
depends="${shlibs#shlibs:Depends=}"
[ -n "$depends" ] && [ "$depends" != "$shlibs" ] || { echo "build-deb: dpkg-shlibdeps gave no Depends" >&2; exit 1; }
# Packed relative relocations need glibc 2.36, which the symbol versions dpkg-shlibdeps reads
# do not say.
if readelf -d "$stage/usr/bin/buoy" | grep -q '(RELR)'; then
    libc="$(printf '%s\n' "$depends" | tr ',' '\n' | sed -n 's/^ *libc6 (>= \([^)]*\))$/\1/p')"
    if [ -n "$libc" ] && dpkg --compare-versions "$libc" lt 2.36; then
        depends="$(printf '%s' "$depends" | sed "s/libc6 (>= $libc)/libc6 (>= 2.36)/")"
    fi
fi
# The libraries buoy opens with dlopen (deploy/debian/dlopen-libraries), which dpkg-shlibdeps
# cannot see: each one's Depends as its package's shlibs file gives it, for this architecture.
multiarch="$(dpkg-architecture -a"$arch" -qDEB_HOST_MULTIARCH 2>/dev/null)"
while read -r soname; do
    case "$soname" in ''|'#'*) continue ;; esac
    owner="$({ dpkg-query -S "/usr/lib/$multiarch/$soname" "/lib/$multiarch/$soname" 2>/dev/null || true; } | sed -n '1s/: .*//p')"
    [ -n "$owner" ] || { echo "build-deb: no installed $arch package has $soname (deploy/debian/dlopen-libraries)" >&2; exit 1; }
    name="${soname%%.so*}" major="${soname##*.so.}"
    entry="$(awk -v n="$name" -v m="$major" '$1 == n && $2 == m { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' \
        "$(dpkg-query --control-path "$owner" shlibs 2>/dev/null)" 2>/dev/null)"
    [ -n "$entry" ] || entry="${owner%%:*} (>= $(dpkg-query -W -f='${Version}' "$owner" | sed 's/-[^-]*$//'))"
    depends="$depends, $entry"
done < "$here/debian/dlopen-libraries"
installed_size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" \
    -e "s/@INSTALLED_SIZE@/$installed_size/" "$here/debian/control.in" > "$stage/DEBIAN/control"
(cd "$stage" && find etc -type f | sed 's|^|/|' | sort) > "$stage/DEBIAN/conffiles"
install -m 0755 "$here/debian/postinst" "$here/debian/postrm" "$stage/DEBIAN/"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/md5sums"

deb="buoy_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$work/$deb" >&2
mv -f "$work/$deb" "$out/$deb"
echo "$out/$deb"
