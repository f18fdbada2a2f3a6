#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-uboot.sh: U-Boot proper for the emulated boards, loaded into RAM
# (issue 17's brick-safe boot), from Debian's u-boot source package. One
# build a board, each a defconfig of the tree with our fragment on it:
#   GnuBee GB-PC1/PC2  mt7621_rfb_defconfig + uboot/configs/gnubee-ram.config
#                      -> build/u-boot/u-boot
#   VoCore2            vocore2_defconfig + uboot/configs/vocore2-ram.config
#                      -> build/u-boot/u-boot-vocore2
#   MT7620A eval       mt7620_rfb_defconfig + uboot/configs/mt7620-ram.config
#                      -> build/u-boot/u-boot-mt7620
#   uboot/arch/..., uboot/board/...   our new files, copied into the tree:
#                                     the GnuBee's device tree, the
#                                     environment (CONFIG_ENV_SOURCE_FILE)
#   uboot/patches/*.patch             changes to U-Boot's own files
# The source is fetched and unpacked once per version and patch set
# ($CACHE/uboot), each board's build is incremental in its own directory
# and cached by ccache; the ELF is what QEMU's -kernel loads, as the
# board's vendor U-Boot would jump to it.
set -euo pipefail
. "$(dirname "$0")/env.sh"

UDIR=$CACHE/uboot
mkdir -p "$UDIR/dl"
exec 9>"$UDIR/.lock"
flock 9

ver=$(apt-cache showsrc u-boot | sed -n 's/^Version: \(2023\.01[^ ]*\)$/\1/p' |
	sort -V | tail -n1)
[ -n "$ver" ] || die "no u-boot 2023.01 source package: is there a deb-src entry? (scripts/deps.sh)"

dsc=$UDIR/dl/u-boot_$ver.dsc
if [ ! -f "$dsc" ]; then
	log "fetching u-boot $ver source package"
	(cd "$UDIR/dl" && apt-get source --download-only -qq "u-boot=$ver") 2>&1 |
		grep -v 'Download is performed unsandboxed' >&2 || true
	[ -f "$dsc" ] || die "apt-get source u-boot=$ver failed"
fi

shopt -s nullglob
patches=("$TOP"/uboot/patches/*.patch)
shopt -u nullglob
key=$(printf '%s\n' "$ver" | cat - "${patches[@]}" | sha256sum | cut -c1-16)
src=$UDIR/src
if [ "$(cat "$src/.ralink-fe-key" 2>/dev/null)" != "$key" ]; then
	log "unpacking u-boot $ver and applying ${#patches[@]} patches"
	rm -rf "$src" "$UDIR"/build "$UDIR"/build-*
	dpkg-source --no-check -x "$dsc" "$src" >/dev/null
	rm -f "$UDIR"/u-boot_*.orig.tar.*
	for p in "${patches[@]}"; do
		patch -d "$src" -p1 -s --no-backup-if-mismatch <"$p" ||
			die "patch $(basename "$p") does not apply"
	done
	echo "$key" >"$src/.ralink-fe-key"
fi

rsync -rc "$TOP/uboot/arch" "$TOP/uboot/board" "$src/"
SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l "$src/debian/changelog" \
	-STimestamp)
export SOURCE_DATE_EPOCH
mkdir -p "$BUILD/u-boot"

# build_board NAME DEFCONFIG FRAGMENT OUTPUT
build_board() {
	local name=$1 defconfig=$2 frag=$TOP/uboot/configs/$3 out=$BUILD/u-boot/$4
	local bld=$UDIR/build-$name
	[ "$name" != gnubee ] || bld=$UDIR/build
	local mk=(make -C "$src" O="$bld" ARCH=mips CROSS_COMPILE="ccache mipsel-linux-gnu-")
	local cfgkey
	cfgkey=$(cat "$frag" "$src/configs/$defconfig" | sha256sum | cut -c1-16)
	if [ "$(cat "$bld/.ralink-fe-config" 2>/dev/null)" != "$cfgkey" ]; then
		log "u-boot: $name: configuring ($defconfig + $(basename "$frag"))"
		mkdir -p "$bld"
		"${mk[@]}" -s "$defconfig" >/dev/null
		"$src/scripts/kconfig/merge_config.sh" -m -O "$bld" "$bld/.config" \
			"$frag" >"$UDIR/config-$name.log" 2>&1
		"${mk[@]}" -s olddefconfig >/dev/null
		while read -r line; do
			case $line in
			CONFIG_*=*) grep -qx "$line" "$bld/.config" ||
				die "u-boot: $line did not take (see $bld/.config)" ;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }
				sym=${sym%% *}
				! grep -q "^$sym=" "$bld/.config" ||
					die "u-boot: '$line' did not take" ;;
			esac
		done <"$frag"
		echo "$cfgkey" >"$bld/.ralink-fe-config"
	fi

	log "u-boot: $name: make u-boot (log: $UDIR/build-$name.log)"
	"${mk[@]}" -j"$(nproc)" u-boot >"$UDIR/build-$name.log" 2>&1 ||
		{ tail -n 30 "$UDIR/build-$name.log" >&2; die "u-boot build failed"; }
	cmp -s "$bld/u-boot" "$out" || cp "$bld/u-boot" "$out"
	log "u-boot: $name: $ver -> $(realpath --relative-to="$TOP" "$out")"
}

build_board gnubee mt7621_rfb_defconfig gnubee-ram.config u-boot
build_board vocore2 vocore2_defconfig vocore2-ram.config u-boot-vocore2
build_board mt7620 mt7620_rfb_defconfig mt7620-ram.config u-boot-mt7620
# The FIT's tool, from the GnuBee's build (the same for every board)
cmp -s "$UDIR/build/tools/mkimage" "$BUILD/u-boot/mkimage" ||
	cp "$UDIR/build/tools/mkimage" "$BUILD/u-boot/mkimage"
