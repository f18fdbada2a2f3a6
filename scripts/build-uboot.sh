#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-uboot.sh: U-Boot proper for the emulated GnuBee, loaded into RAM
# (issue 17's brick-safe boot), from Debian's u-boot source package:
#   uboot/configs/gnubee-ram.config   merged onto mt7621_rfb_defconfig
#   uboot/arch/..., uboot/board/...   our new files, copied into the tree:
#                                     the GnuBee's device tree, the
#                                     environment (CONFIG_ENV_SOURCE_FILE)
#   uboot/patches/*.patch             changes to U-Boot's own files
# The source is fetched and unpacked once per version and patch set
# ($CACHE/uboot), the build is incremental and cached by ccache; the ELF
# goes to build/u-boot/u-boot (what QEMU's -kernel loads, as the board's
# vendor U-Boot would jump to it).
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
bld=$UDIR/build
if [ "$(cat "$src/.ralink-fe-key" 2>/dev/null)" != "$key" ]; then
	log "unpacking u-boot $ver and applying ${#patches[@]} patches"
	rm -rf "$src" "$bld"
	dpkg-source --no-check -x "$dsc" "$src" >/dev/null
	rm -f "$UDIR"/u-boot_*.orig.tar.*
	for p in "${patches[@]}"; do
		patch -d "$src" -p1 -s --no-backup-if-mismatch <"$p" ||
			die "patch $(basename "$p") does not apply"
	done
	echo "$key" >"$src/.ralink-fe-key"
fi

frag=$TOP/uboot/configs/gnubee-ram.config
# Our files, by checksum: an unchanged one keeps its time and rebuilds
# nothing.
rsync -rc "$TOP/uboot/arch" "$TOP/uboot/board" "$src/"
mk=(make -C "$src" O="$bld" ARCH=mips CROSS_COMPILE="ccache mipsel-linux-gnu-")
cfgkey=$(cat "$frag" "$src/configs/mt7621_rfb_defconfig" | sha256sum | cut -c1-16)
if [ "$(cat "$bld/.ralink-fe-config" 2>/dev/null)" != "$cfgkey" ]; then
	log "u-boot: configuring (mt7621_rfb_defconfig + $(basename "$frag"))"
	mkdir -p "$bld"
	"${mk[@]}" -s mt7621_rfb_defconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$bld" "$bld/.config" \
		"$frag" >"$UDIR/config.log" 2>&1
	"${mk[@]}" -s olddefconfig >/dev/null
	# Every line of the fragment must have taken
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

log "u-boot: make u-boot (log: $UDIR/build.log)"
# The banner's build date: the source package's, so that an unchanged
# tree builds the same U-Boot (and make fit does not rebuild the FIT).
SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l "$src/debian/changelog" \
	-STimestamp)
export SOURCE_DATE_EPOCH
# The ELF alone: binman's image (u-boot-mt7621.bin) wants the SPL.
"${mk[@]}" -j"$(nproc)" u-boot >"$UDIR/build.log" 2>&1 ||
	{ tail -n 30 "$UDIR/build.log" >&2; die "u-boot build failed"; }
mkdir -p "$BUILD/u-boot"
# Copied only when changed: what depends on them (make fit) keys on them.
# U-Boot's own mkimage, built with it, is make fit's tool (build-fit.sh).
cmp -s "$bld/u-boot" "$BUILD/u-boot/u-boot" ||
	cp "$bld/u-boot" "$BUILD/u-boot/u-boot"
cmp -s "$bld/tools/mkimage" "$BUILD/u-boot/mkimage" ||
	cp "$bld/tools/mkimage" "$BUILD/u-boot/mkimage"
log "u-boot: $ver -> $(realpath --relative-to="$TOP" "$BUILD/u-boot/u-boot")"
