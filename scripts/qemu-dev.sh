#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Work on our changes to QEMU's own files as git commits:
#   scripts/qemu-dev.sh setup    git tree of Debian's qemu source with
#                                qemu/patches applied as commits, in
#                                $CACHE/dev/qemu, our files copied in
#   scripts/qemu-dev.sh build    copy our files in again and build there
#   scripts/qemu-dev.sh export   qemu/patches/ from the commits on top of
#                                the pristine source
set -euo pipefail
. "$(dirname "$0")/env.sh"

dev=$CACHE/dev
tree=$dev/qemu

case "${1:-}" in
setup)
	[ ! -e "$tree" ] || die "$tree exists; remove it first"
	dsc=$(ls "$CACHE"/qemu/dl/qemu_*.dsc | sort -V | tail -n1)
	mkdir -p "$dev"
	dpkg-source --no-check -x "$dsc" "$tree" >/dev/null
	rm -f "$dev"/qemu_*.orig.tar.*
	git -C "$tree" init -q
	git -C "$tree" add -A
	git -C "$tree" -c user.name=pristine -c user.email=pristine@invalid \
		commit -qm pristine
	git -C "$tree" tag pristine
	for p in "$TOP"/qemu/patches/*.patch; do
		[ -e "$p" ] && git -C "$tree" am -q "$p"
	done
	# Our own files are copied in, never committed there.
	(cd "$TOP/qemu" && find . -type f ! -path './patches/*' ! -name '*.md' |
		sed 's|^\.||') >>"$tree/.git/info/exclude"
	rsync -rc --exclude patches --exclude '*.md' "$TOP/qemu/" "$tree/"
	log "dev tree: $tree"
	;;
build)
	rsync -rc --exclude patches --exclude '*.md' "$TOP/qemu/" "$tree/"
	if [ ! -f "$dev/build/build.ninja" ]; then
		mkdir -p "$dev/build"
		(cd "$dev/build" && "$tree/configure" \
			--target-list=mipsel-softmmu --cc="ccache gcc" \
			--without-default-features --without-default-devices \
			--with-devices-mipsel=gnubee --enable-plugins \
			--enable-slirp --enable-fdt=system --disable-docs \
			--disable-tools --disable-guest-agent --disable-werror \
			>/dev/null)
	fi
	ninja -C "$dev/build" qemu-system-mipsel
	;;
export)
	rm -f "$TOP"/qemu/patches/*.patch
	git -C "$tree" format-patch -q --no-signature --zero-commit \
		-o "$TOP/qemu/patches" pristine..HEAD
	ls "$TOP"/qemu/patches
	;;
*)
	echo "usage: $0 setup|build|export" >&2
	exit 2
	;;
esac
