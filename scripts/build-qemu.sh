#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build qemu-system-mipsel from Debian's qemu 7.2 source package with our
# machine and device models added:
#   qemu/patches/*.patch   changes to QEMU's own files, applied in order
#   qemu/hw/..., qemu/include/...  our new files, copied into the tree
# The source tree and build directory live in $CACHE, keyed by the Debian
# version and the hash of the patches; our files are copied with checksum
# comparison so ninja only rebuilds what changed.
set -euo pipefail
. "$(dirname "$0")/env.sh"

QDIR=$CACHE/qemu
mkdir -p "$QDIR/dl"
# One build at a time per cache (parallel make runs, several checkouts).
exec 9>"$QDIR/.lock"
flock 9

# The newest 7.2 source package the machine's apt sources offer (our
# patches are against 7.2; a newer QEMU, e.g. from backports, is not it).
ver=$(apt-cache showsrc qemu | sed -n 's/^Version: \(1:7\.2[^ ]*\)$/\1/p' |
	sort -V | tail -n1)
[ -n "$ver" ] || die "no qemu 7.2 source package: is there a deb-src entry? (scripts/deps.sh)"
uver=${ver#*:}

dsc=$QDIR/dl/qemu_$uver.dsc
if [ ! -f "$dsc" ]; then
	log "fetching qemu $ver source package"
	(cd "$QDIR/dl" && apt-get source --download-only -qq "qemu=$ver") 2>&1 |
		grep -v 'Download is performed unsandboxed' >&2 || true
	[ -f "$dsc" ] || die "apt-get source qemu=$ver failed"
fi

patches=("$TOP"/qemu/patches/*.patch)
[ -e "${patches[0]}" ] || patches=()
key=$(printf '%s\n' "$uver" | cat - "${patches[@]}" | sha256sum | cut -c1-16)
# Fixed paths, so that ccache (CCACHE_BASEDIR) hits across keys.
src=$QDIR/src
bld=$QDIR/build

if [ "$(cat "$src/.ralink-fe-key" 2>/dev/null)" != "$key" ]; then
	log "unpacking qemu $uver and applying ${#patches[@]} patches"
	rm -rf "$src"
	dpkg-source --no-check -x "$dsc" "$src" >/dev/null
	# dpkg-source leaves a copy of the upstream tarball beside the tree.
	rm -f "$QDIR"/qemu_*.orig.tar.*
	for p in "${patches[@]}"; do
		patch -d "$src" -p1 -s --no-backup-if-mismatch <"$p" ||
			die "patch $(basename "$p") does not apply"
	done
	echo "$key" >"$src/.ralink-fe-key"
fi

# Our files: copy only what differs, so timestamps of unchanged files stay.
rsync -rc --exclude patches --exclude '*.md' "$TOP/qemu/" "$src/"

config=(
	--target-list=mipsel-softmmu
	--cc="ccache gcc" --host-cc="ccache gcc"
	--without-default-features
	--without-default-devices --with-devices-mipsel=gnubee
	--enable-plugins --enable-slirp --enable-fdt=system
	--disable-docs --disable-tools --disable-guest-agent
	--disable-werror
)
if [ "$(cat "$bld/.ralink-fe-config" 2>/dev/null)" != "${config[*]}" ]; then
	log "configuring qemu"
	rm -rf "$bld"
	mkdir -p "$bld"
	(cd "$bld" && "$src/configure" "${config[@]}" >"$bld/configure.log" 2>&1) ||
		{ tail -n 30 "$bld/configure.log" >&2; die "qemu configure failed"; }
	echo "${config[*]}" >"$bld/.ralink-fe-config"
fi

log "building qemu-system-mipsel"
export CCACHE_BASEDIR=$QDIR
ninja -C "$bld" qemu-system-mipsel >"$bld/ninja.log" 2>&1 ||
	{ grep -B2 -A12 -m3 'error' "$bld/ninja.log" >&2 || tail -n 40 "$bld/ninja.log" >&2
	  die "qemu build failed (full log: $bld/ninja.log)"; }

mkdir -p "$BUILD/qemu"
ln -sfn "$bld/qemu-system-mipsel" "$BUILD/qemu/qemu-system-mipsel"
# The plugin API header, for plugins built against this tree.
ln -sfn "$src/include/qemu/qemu-plugin.h" "$BUILD/qemu/qemu-plugin.h"
log "qemu: $BUILD/qemu/qemu-system-mipsel"
