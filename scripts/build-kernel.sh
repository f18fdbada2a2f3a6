#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh <variant> - build a kernel for the emulated boards.
#
# Variants:
#   main       the MT7621 (GnuBee GB-PC1/PC2) kernel: Debian's
#              linux-source-6.12 + kernel/patches/*.patch
#   mt76x8     the MT7628AN/MT7688 (VoCore2, Omega2+) kernel: main's source
#              tree, its own configuration and O= directory
#   rt305x     the RT305x (RT3052 and RT5350 evaluation boards) kernel:
#              likewise
#   rt3883     the RT3883 (its evaluation board) kernel: likewise
#   rt2880     the RT2880 (its evaluation board) kernel: likewise
#   no-cm-fix  main + tests/cm-region/0001-*.patch (only for the cm-region
#              test: drops the GCR region-0 re-programming from
#              prom_soc_init(), so the console goes silent on purpose)
#   ours       only our out-of-tree modules (kernel/Kbuild), rebuilt against
#              main's existing build and installed into $BUILD's copy of
#              main's modules: a quick cycle while working on our drivers
#              (several work trees, each with its own BUILD, can share one
#              main build). `main` builds them too.
#
# Layout in the cache (identical relative layout for every variant, so
# that with CCACHE_BASEDIR nearly every object of one variant is a ccache
# hit for the other):
#   $CACHE/kernel/<variant>/src      the source tree (no-cm-fix: cp -al of
#                                    main's, patched files unshared first)
#   $CACHE/kernel/<variant>/obj      O= build directory
#   $CACHE/kernel/<variant>/staging  modules_install (INSTALL_MOD_PATH)
#   $CACHE/kernel/<variant>/build.log
#
# Outputs (copies, refreshed only when they changed):
#   build/kernel/<variant>/{vmlinux,System.map,.config}
#   build/kernel/<variant>/dtbs/mt7621-gnubee-gb-pc{1,2}.dtb
#   build/kernel/<variant>/modules/lib/modules/<kver>/...  (but no-cm-fix;
#   mt76x8 and rt305x also as build/kernel/<variant>/modules.cpio)
#
# The configuration is allnoconfig + kernel/configs/*.config merged, then
# olddefconfig; every option the fragments ask for is then checked in the
# final .config and the build fails listing the ones that did not stick.
set -euo pipefail

. "$(dirname "$0")/env.sh"

variant=${1:-}
case "$variant" in
main | no-cm-fix | mt76x8 | rt305x | rt3883 | rt2880 | ours) ;;
*) die "usage: $0 main|no-cm-fix|mt76x8|rt305x|rt3883|rt2880|ours" ;;
esac

[ -r "$KSRC_TAR" ] || die "$KSRC_TAR missing (run scripts/deps.sh)"
command -v ccache >/dev/null || die "ccache missing (run scripts/deps.sh)"
command -v "${CROSS_COMPILE}gcc" >/dev/null ||
	die "${CROSS_COMPILE}gcc missing (run scripts/deps.sh)"

KROOT=$CACHE/kernel
# Each family's kernel: its config fragments (kernel/configs) and DTBs.
case "$variant" in
mt76x8)
	DTBS=(vocore2 omega2p mt7620a_eval)
	FRAGMENTS=(base mt76x8 net eth-test testbed)
	;;
rt305x)
	DTBS=(rt3052_eval rt5350_eval)
	FRAGMENTS=(base rt305x testbed)
	;;
rt3883)
	DTBS=(rt3883_eval)
	FRAGMENTS=(base rt3883 eth-test testbed)
	;;
rt2880)
	DTBS=(rt2880_eval)
	FRAGMENTS=(base rt2880 eth-test testbed)
	;;
*)
	DTBS=(mt7621-gnubee-gb-pc1 mt7621-gnubee-gb-pc2)
	FRAGMENTS=(base mt7621 net eth-test testbed)
	;;
esac
FRAGMENTS=("${FRAGMENTS[@]/#/$TOP/kernel/configs/}")
FRAGMENTS=("${FRAGMENTS[@]/%/.config}")
for f in "${FRAGMENTS[@]}"; do
	[ -f "$f" ] || die "$f missing"
done
shopt -s nullglob
MAIN_PATCHES=("$TOP"/kernel/patches/*.patch)
CM_PATCHES=("$TOP"/tests/cm-region/0001-*.patch)
# Our drivers' Kconfig symbols when built out of tree (kernel/Kbuild).
OURS_CONFIG=(CONFIG_NET_RALINK_FE=m CONFIG_NET_DSA_RALINK_MT7530=m
	CONFIG_NET_DSA_RALINK_ESW=m)
# Test-only DTs (tests/dts/<soc>-*.dts), built beside the stock ones of the
# kernel for that SoC.
case "$variant" in
mt76x8) TEST_DTS=("$TOP"/tests/dts/mt7628-*.dts "$TOP"/tests/dts/mt7620a-*.dts) ;;
rt305x) TEST_DTS=("$TOP"/tests/dts/rt5350-*.dts) ;;
rt3883 | rt2880) TEST_DTS=() ;;
*) TEST_DTS=("$TOP"/tests/dts/mt7621-*.dts) ;;
esac
shopt -u nullglob

# Relative paths under this directory are what ccache hashes: both
# variants compile ../src/<file> from <variant>/obj.
export CCACHE_BASEDIR=$KROOT
# Reproducible kbuild metadata, so that init/version.o is a hit too.
export KBUILD_BUILD_USER=ralink-fe KBUILD_BUILD_HOST=ralink-fe
KBUILD_BUILD_TIMESTAMP=$(date -u -R -r "$KSRC_TAR")
export KBUILD_BUILD_TIMESTAMP


# prepare_main_src: extract once per package version (and patch set).
prepare_main_src() {
	local dir=$KROOT/main/src key
	key="pkg=$(kernel_pkg_version) patches=none"
	[ ${#MAIN_PATCHES[@]} -eq 0 ] || key="${key%none}$(hash_of "${MAIN_PATCHES[@]}")"
	if [ -d "$dir" ] && [ "$(cat "$dir.stamp" 2>/dev/null)" = "$key" ]; then
		return 0
	fi
	log "extracting $(basename "$KSRC_TAR") ($key)"
	rm -rf "$dir" "$dir.tmp" "$dir.stamp"
	mkdir -p "$dir.tmp"
	tar -C "$dir.tmp" --strip-components=1 -xf "$KSRC_TAR"
	[ -f "$dir.tmp/Makefile" ] || die "unexpected layout in $KSRC_TAR"
	if [ ${#MAIN_PATCHES[@]} -gt 0 ]; then
		log "applying ${#MAIN_PATCHES[@]} patch(es) from kernel/patches"
		apply_patches "$dir.tmp" "${MAIN_PATCHES[@]}"
	fi
	mv "$dir.tmp" "$dir"
	echo "$key" >"$dir.stamp"
}

# prepare_variant_src VARIANT PATCH...: cheap copy of main's tree + patches.
prepare_variant_src() {
	local v=$1 dir=$KROOT/$1/src key
	shift
	[ $# -gt 0 ] || die "no patches for variant $v"
	key="main={$(cat "$KROOT/main/src.stamp")} patches=$(hash_of "$@")"
	if [ -d "$dir" ] && [ "$(cat "$dir.stamp" 2>/dev/null)" = "$key" ]; then
		return 0
	fi
	log "preparing $v source tree (hardlinked copy of main + $# patch(es))"
	rm -rf "$dir" "$dir.tmp" "$dir.stamp"
	mkdir -p "$(dirname "$dir")"
	cp -al "$KROOT/main/src" "$dir.tmp"
	apply_patches "$dir.tmp" "$@"
	mv "$dir.tmp" "$dir"
	echo "$key" >"$dir.stamp"
}

# check_config FRAGMENT... : every requested value must be in .config.
check_config() {
	local config=$1 bad=0 line sym want have
	shift
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			sym=${line%%=*} want=${line#*=} ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# } sym=${sym%% *} want=n ;;
		*) continue ;;
		esac
		have=$(sed -n "s/^$sym=//p" "$config")
		[ -n "$have" ] || have=n
		if [ "$have" != "$want" ]; then
			printf '  %s: requested %s, got %s\n' "$sym" "$want" "$have" >&2
			bad=$((bad + 1))
		fi
	done < <(cat "$@")
	[ "$bad" -eq 0 ]
}

kmake() {
	make -C "$src" O="$obj" ARCH=mips CROSS_COMPILE="$CROSS_COMPILE" \
		CC="ccache ${CROSS_COMPILE}gcc" HOSTCC="ccache gcc" \
		-j"$JOBS" "$@" >>"$logf" 2>&1 || {
		tail -n 40 "$logf" >&2
		die "make $* failed (full log: $logf)"
	}
}

# publish SRC DST: copy if the content changed (atomic rename).
publish() {
	cmp -s "$1" "$2" 2>/dev/null && return 0
	mkdir -p "$(dirname "$2")"
	cp "$1" "$2.tmp"
	mv -f "$2.tmp" "$2"
}

# build_ours: our drivers (kernel/drivers/...) as out-of-tree modules of
# this build, installed beside mainline's (lib/modules/<kver>/updates).
# Built in a copy under the cache: kbuild writes next to the sources.
build_ours() {
	local ext=$1
	[ -f "$TOP/kernel/Kbuild" ] || return 0
	mkdir -p "$ext"
	rsync -a --delete --exclude '*.o' --exclude '*.ko' --exclude '.*.cmd' \
		--exclude '*.mod*' --exclude 'modules.order' \
		--exclude 'Module.symvers' "$TOP/kernel/" "$ext/src/"
	# As their Kconfig entries would: the frame engine driver needs phylink
	# and page_pool (selected by mainline's mtk_eth_soc here), the switch
	# drivers DSA (the RT3883's kernel has neither yet)
	local cfg=("${OURS_CONFIG[@]}")
	if ! grep -q '^CONFIG_PHYLINK=' "$obj/.config"; then
		log "$variant: no phylink: not building our drivers"
		return 0
	fi
	grep -q '^CONFIG_NET_DSA=[ym]' "$obj/.config" ||
		cfg=(CONFIG_NET_RALINK_FE=m)
	kmake M="$ext/src" W=1 "${cfg[@]}" modules
	kmake M="$ext/src" "${cfg[@]}" INSTALL_MOD_PATH="$stage" \
		INSTALL_MOD_STRIP=1 INSTALL_MOD_DIR=updates modules_install
	[ -z "$(grep -i -E 'warning:' "$logf" | grep -F "$ext/src" || true)" ] ||
		die "our modules build with warnings (see $logf)"
}

if [ "$variant" = ours ]; then
	vdir=$KROOT/main
	src=$vdir/src obj=$vdir/obj
	[ -f "$obj/vmlinux" ] || die "no main kernel build yet (make kernel)"
	logf=$BUILD/kernel/ours.log
	stage=$BUILD/kernel/main/modules
	[ -d "$stage/lib/modules" ] || die "no $stage (make kernel)"
	mkdir -p "$BUILD/kernel"
	: >"$logf"
	build_ours "$BUILD/kernel/ours-obj"
	log "ours: $(find "$stage" -path '*/updates/*.ko' | wc -l) modules -> ${stage#"$TOP"/}"
	exit 0
fi

prepare_main_src
case "$variant" in
no-cm-fix)
	[ ${#CM_PATCHES[@]} -gt 0 ] || die "tests/cm-region/0001-*.patch missing"
	prepare_variant_src "$variant" "${CM_PATCHES[@]}"
	;;
esac

vdir=$KROOT/$variant
src=$vdir/src
# Another family's kernel builds main's tree in an O= directory of its own.
case "$variant" in
mt76x8 | rt305x | rt3883 | rt2880) src=$KROOT/main/src ;;
esac
obj=$vdir/obj
logf=$vdir/build.log
mkdir -p "$vdir"
out=$BUILD/kernel/$variant

# Up to date: the inputs of the last complete build of this variant (its
# source tree's stamp, which names the package and the patches; every
# file under kernel/ and tests/dts/; this script; the cross compiler)
# hash to the key it left in $out, and its outputs are there. kbuild's
# walk of an unchanged tree costs 8-10 s a variant, and make test and
# make run (the run suite too) start with it.
inputs_key() {
	{
		cat "$src.stamp"
		echo "$variant $("${CROSS_COMPILE}gcc" -dumpfullversion)"
		find "$TOP/kernel" "$TOP/tests/dts" -type f -print0 | sort -z |
			xargs -0 sha256sum
		sha256sum "$0" "$TOP/scripts/env.sh"
	} | sha256sum | cut -c1-16
}
key=$(inputs_key)
# The kernels that carry modules: main's (mainline's and ours) and the
# single-core SoCs' (ours, on an initramfs of their own: modules.cpio).
with_modules() { [ "$variant" != no-cm-fix ]; }
if [ "$(cat "$out/.inputs-key" 2>/dev/null)" = "$key" ] && [ -f "$out/vmlinux" ] &&
	{ ! with_modules || [ -d "$out/modules/lib/modules" ]; }; then
	log "$variant: up to date (inputs $key) -> ${out#"$TOP"/}"
	exit 0
fi
rm -f "$out/.inputs-key"
: >"$logf"
# Per-build ccache counters (the cache itself is shared with other builds).
export CCACHE_STATSLOG=$vdir/ccache-stats.log
: >"$CCACHE_STATSLOG"

# A new source tree (package version, patches) gets a fresh O= directory.
if [ "$(cat "$obj/.src-stamp" 2>/dev/null)" != "$(cat "$src.stamp")" ]; then
	rm -rf "$obj"
	mkdir -p "$obj"
	cp "$src.stamp" "$obj/.src-stamp"
fi

# Configuration: redone when a fragment changed (or none was done yet).
cfg_key=$(hash_of "${FRAGMENTS[@]}")
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.fragments-key" 2>/dev/null)" != "$cfg_key" ]; then
	log "$variant: configuring (allnoconfig + ${FRAGMENTS[*]##*/})"
	rm -f "$obj/.fragments-key"
	kmake allnoconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"${FRAGMENTS[@]}" >>"$logf" 2>&1 || die "merge_config.sh failed (see $logf)"
	kmake olddefconfig
	echo "$cfg_key" >"$obj/.fragments-key"
fi
if ! check_config "$obj/.config" "${FRAGMENTS[@]}"; then
	rm -f "$obj/.fragments-key"
	die "$variant: the options above did not stick (missing dependency?)"
fi

targets=(vmlinux)
# no-cm-fix only has to boot far enough to show the silent console.
if with_modules; then
	targets+=(modules)
	for f in "${TEST_DTS[@]}"; do
		publish "$f" "$src/arch/mips/boot/dts/ralink/${f##*/}"
		DTBS+=("$(basename "$f" .dts)")
	done
	# What the test DTs include
	for f in "$TOP"/tests/dts/*.dtsi; do
		publish "$f" "$src/arch/mips/boot/dts/ralink/${f##*/}"
	done
fi
for d in "${DTBS[@]}"; do
	targets+=("ralink/$d.dtb")
done

log "$variant: make ${targets[*]} (-j$JOBS, log: $logf)"
kmake "${targets[@]}"
kver=$(cat "$obj/include/config/kernel.release")

publish "$obj/vmlinux" "$out/vmlinux"
publish "$obj/System.map" "$out/System.map"
publish "$obj/.config" "$out/.config"
for d in "${DTBS[@]}"; do
	publish "$obj/arch/mips/boot/dts/ralink/$d.dtb" "$out/dtbs/$d.dtb"
done

ccache_summary() {
	ccache --show-log-stats 2>/dev/null | sed -n 's/^ *Hits: *\([0-9]*\) *\/ *\([0-9]*\).*/ccache hits \1\/\2/p'
}

if with_modules; then
	stage=$vdir/staging
	rm -rf "$stage"
	kmake INSTALL_MOD_PATH="$stage" INSTALL_MOD_STRIP=1 modules_install
	build_ours "$vdir/ours"
	# The build symlink points into the cache; of no use in the guest.
	rm -f "$stage/lib/modules/$kver/build"
	if ! diff -qr "$stage" "$out/modules" >/dev/null 2>&1; then
		rm -rf "$out/modules.tmp"
		cp -a "$stage" "$out/modules.tmp"
		rm -rf "$out/modules"
		mv "$out/modules.tmp" "$out/modules"
	fi
	# The single-core boards' initramfs (busybox's) has no modules: theirs
	# go in a cpio of their own that the tests append to it.
	# Under usr/lib: the rootfs is merged-/usr, and an archive's "lib"
	# directory would replace its /lib symlink (and the C library with it).
	if [ "$variant" != main ]; then
		rm -rf "$vdir/cpio"
		mkdir -p "$vdir/cpio/usr/lib"
		cp -a "$out/modules/lib/modules" "$vdir/cpio/usr/lib/"
		(cd "$vdir/cpio" && find . | LC_ALL=C sort |
			cpio -o -H newc -R 0:0 --reproducible --quiet) >"$out/modules.cpio.tmp"
		mv -f "$out/modules.cpio.tmp" "$out/modules.cpio"
	fi
	nmod=$(find "$out/modules" -name '*.ko' | wc -l)
	log "$variant: $kver, vmlinux $(du -h "$out/vmlinux" | cut -f1), $nmod modules, $(ccache_summary) -> ${out#"$TOP"/}"
else
	log "$variant: $kver, vmlinux $(du -h "$out/vmlinux" | cut -f1), $(ccache_summary) -> ${out#"$TOP"/}"
fi
echo "$key" >"$out/.inputs-key"
