#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs from Debian bookworm mipsel packages:
#
#   scripts/build-rootfs.sh [full|base|net]
#
#   full (default): rootfs/packages-{base,selftests}.list -> build/rootfs.cpio
#   base:           rootfs/packages-base.list only -> build/rootfs-base.cpio
#   net:            base and rootfs/packages-net.list -> build/rootfs-net.cpio
#                   (iproute2 for the 128 MiB single-core boards' DSA tests)
#
# 1. Resolve the lists' dependencies with apt, as for an install into an
#    empty mipsel system (private dpkg status, no Recommends), except that
#    the packages in rootfs/packages-skip.list are marked as installed, so
#    that neither they nor what only they need get in.
# 2. Download the debs (apt-get download) into $CACHE/rootfs/debs, whose
#    file names carry the versions; only missing ones are fetched.
# 3. Unpack them (no maintainer script runs) into a merged-/usr tree,
#    build/rootfs-pkgs[-base], trim docs, add the update-alternatives
#    links, and check that every ELF finds its interpreter and NEEDED
#    libraries. Redone only when the resolved package set changes.
# 4. Assemble build/rootfs[-base]: that tree (hard links), rootfs/overlay,
#    rootfs/init, and (full level) the MT7621 kernel's modules if built
#    (build/kernel/main/modules/lib/modules/*) and the guest tools of
#    tests/tools, cross-compiled (poke at every level).
# 5. Write a newc cpio, owner root, plus /dev/console. ROOTFS_COMPRESS=gzip
#    writes build/rootfs[-base].cpio.gz (gzip -1) instead; the default,
#    none, boots faster under TCG, where the guest's gunzip is slow: 66 MiB
#    unpacked in 0.4-0.6 s against 1.5-2.0 s for the 24 MiB gzip -1 file
#    (one CPU, Malta); on gnubee-pc1 (4 CPUs, unpacking overlaps other
#    init work) the shell came up at 1.7-2.5 s guest uptime against 2.3-2.6.
#    The guest briefly holds both the archive and its contents in RAM.
#
# Nothing is done when the resolved package set, rootfs/, this script and
# the modules are unchanged since the last build (a stamp by the output).
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "$0")/env.sh"

LEVEL=${1:-full}
case $LEVEL in
full) LISTS=(base selftests); SUFFIX= ;;
base) LISTS=(base); SUFFIX=-base ;;
net) LISTS=(base net); SUFFIX=-net ;;
*) die "usage: $0 [full|base|net]" ;;
esac
case ${ROOTFS_COMPRESS:=none} in
none) OUT=$BUILD/rootfs$SUFFIX.cpio ;;
gzip) OUT=$BUILD/rootfs$SUFFIX.cpio.gz ;;
*) die "ROOTFS_COMPRESS: none or gzip" ;;
esac
ARCH=mipsel
TRIPLET=mipsel-linux-gnu
RDIR=$TOP/rootfs
PKGTREE=$BUILD/rootfs-pkgs$SUFFIX
STAGE=$BUILD/rootfs$SUFFIX
STAMP=$OUT.stamp
RCACHE=$CACHE/rootfs
DEBS=$RCACHE/debs
MODDIR=$BUILD/kernel/main/modules/lib/modules
READELF=${CROSS_COMPILE}readelf
mkdir -p "$RCACHE/apt/cache/archives/partial" "$DEBS"
t0=$(date +%s%N)
ms() { echo "$((($(date +%s%N) - t0) / 1000000)) ms"; }

# Package names from list files: '#' comments, blank lines, spaces.
read_list() { sed 's/#.*//' "$@" | tr -s ' \t' '\n' | sed '/^$/d'; }

# apt on the host's own package lists (deps.sh adds mipsel to them), but
# as for a mipsel-only system with the private status file below.
APT_OPTS=(
	-o APT::Architecture="$ARCH" -o APT::Architectures::="$ARCH"
	-o Dir::State::status="$RCACHE/apt/status"
	-o Dir::State::extended_states="$RCACHE/apt/extended_states"
	-o Dir::Cache="$RCACHE/apt/cache"
	-o Debug::NoLocking=1 -o APT::Sandbox::User=root
	-o APT::Get::Upgrade-By-Source-Package=false
	-o APT::Install-Recommends=false -o APT::Install-Suggests=false
)

pkgs=$(for l in "${LISTS[@]}"; do read_list "$RDIR/packages-$l.list"; done)
skips=$(read_list "$RDIR/packages-skip.list")
eval "$(apt-config shell lists_dir Dir::State::Lists/d)"
pkg_lists=("$lists_dir"/*_binary-"$ARCH"_Packages*)
[ -e "${pkg_lists[0]}" ] || die "no $ARCH package lists: run scripts/deps.sh"

# --- 1. resolve (cached per lists, skip list and apt's package lists) -----
apt_key=$( { echo "$pkgs"; echo "$skips"; cat "$0";
	stat -c '%n %s %Y' "${pkg_lists[@]}"; } | sha256sum | cut -c1-16)
resolved=$RCACHE/resolved-$LEVEL-$apt_key.txt
if [ ! -s "$resolved" ]; then
	log "rootfs: resolving dependencies ($LEVEL)"
	# The skipped packages as installed: name, version, arch, Provides.
	: >"$RCACHE/apt/status"
	# shellcheck disable=SC2086
	apt-cache "${APT_OPTS[@]}" show --no-all-versions $skips |
		awk '/^(Package|Version|Architecture|Multi-Arch|Provides):/ { print }
		     /^$/ { print "Status: install ok installed\n" }' \
		>"$RCACHE/apt/status.new"
	mv "$RCACHE/apt/status.new" "$RCACHE/apt/status"
	# shellcheck disable=SC2086
	apt-get "${APT_OPTS[@]}" -s -q install $pkgs >"$RCACHE/apt/sim.log" 2>&1 ||
		{ cat "$RCACHE/apt/sim.log" >&2; die "apt could not resolve the lists"; }
	# "Inst NAME (VERSION SUITE [ARCH])" -> "NAME VERSION ARCH"
	sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*\[\([^]]*\)\]).*/\1 \2 \3/p' \
		"$RCACHE/apt/sim.log" | sort >"$resolved.new"
	[ -s "$resolved.new" ] || die "apt resolved nothing (see $RCACHE/apt/sim.log)"
	for s in $skips; do
		! grep -q "^$s " "$resolved.new" || die "skipped package $s still resolved"
	done
	mv "$resolved.new" "$resolved"
	log "rootfs: $(wc -l <"$resolved") packages"
fi

# --- 2. download what is missing -------------------------------------------
debs=()
missing=()
while read -r name ver arch; do
	deb=$DEBS/${name}_${ver//:/%3a}_$arch.deb
	debs+=("$deb")
	[ -f "$deb" ] && continue
	# arch-all packages go by their bare name
	if [ "$arch" = all ]; then missing+=("$name=$ver"); else missing+=("$name:$arch=$ver"); fi
done <"$resolved"
if [ ${#missing[@]} -gt 0 ]; then
	log "rootfs: downloading ${#missing[@]} packages"
	(cd "$DEBS" && apt-get "${APT_OPTS[@]}" -q download "${missing[@]}" \
		>"$RCACHE/apt/download.log" 2>&1) ||
		{ cat "$RCACHE/apt/download.log" >&2; die "apt-get download failed"; }
	for deb in "${debs[@]}"; do
		[ -f "$deb" ] || die "not downloaded: $deb"
	done
fi

# --- up to date? -------------------------------------------------------------
mod_state=none
# The test bed's (MT7621) modules, at the full level only: the single-core
# boards' kernels bring theirs on a cpio of their own (modules.cpio).
if [ "$LEVEL" = full ] && [ -d "$MODDIR" ] && [ -n "$(ls -A "$MODDIR")" ]; then
	mod_state=$(cd "$MODDIR" && find . -printf '%p %s %T@ %l\n' | sort | sha256sum)
fi
# The kernel's selftests (full level): from the kernel source tree.
KSELFTEST=$CACHE/kernel/main/src/tools/testing/selftests
kst_state=none
if [ "$LEVEL" = full ] && [ -d "$KSELFTEST" ]; then
	kst_state=$(cat "$CACHE/kernel/main/src.stamp")
fi
pkg_key=$(cat "$resolved" "$0" | sha256sum | cut -c1-16)
key=$( { echo "$pkg_key $mod_state $kst_state $ROOTFS_COMPRESS";
	for d in "$TOP/tests/guest" "$TOP/tests/tools"; do
		(cd "$d" && find . -type f -printf '%p %m\n' | sort &&
			find . -type f -print0 | sort -z | xargs -0 cat)
	done;
	cd "$RDIR" && find . \( -type f -o -type l \) -printf '%p %m %l\n' | sort &&
	find . -type f -print0 | sort -z | xargs -0 cat; } | sha256sum | cut -c1-16)
if [ -f "$OUT" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$key" ]; then
	log "rootfs: $OUT is up to date"
	exit 0
fi

# --- 3. the package tree -------------------------------------------------------
# check_elfs DIR: every ELF under DIR (but kernel modules) is little-endian
# MIPS and finds its interpreter and NEEDED libraries under DIR (RUNPATH,
# then the default directories).
check_elfs() {
	local dir=$1 f='' k a b c bad=0 found d
	local -a rpath=()
	local libdirs=("/usr/lib/$TRIPLET" /usr/lib "/lib/$TRIPLET" /lib)
	while IFS=$'\t' read -r k a b c; do
		case $k in
		E)	f=$a; rpath=()
			case "$b $c" in
			*MIPS*' little endian') ;;
			*) echo "$f: not little-endian MIPS ($b, $c)" >&2; bad=1 ;;
			esac ;;
		I)	[ -e "$dir$a" ] || { echo "$f: interpreter $a missing" >&2; bad=1; } ;;
		R)	a=${a//\$ORIGIN/${f%/*}}; IFS=: read -r -a rpath <<<"$a" ;;
		N)	found=
			for d in "${rpath[@]}" "${libdirs[@]}"; do
				[ -e "$dir$d/$a" ] && { found=1; break; }
			done
			[ -n "$found" ] || { echo "$f: NEEDED $a not found" >&2; bad=1; } ;;
		esac
	done < <(cd "$dir" && find . -path ./usr/lib/modules -prune -o -type f -print0 |
		xargs -0 "$READELF" -W -h -l -d /dev/null 2>/dev/null |
		awk -v OFS='\t' '
		function flush() {
			if (file != "" && type != "" && type != "REL") {
				print "E", file, mach, data
				if (interp != "") print "I", interp
				if (rpath != "") print "R", rpath
				for (i = 1; i <= n; i++) print "N", needed[i]
			}
			file = ""; type = ""; interp = ""; rpath = ""; n = 0
		}
		/^File: / { flush(); file = substr($0, 7); sub(/^\./, "", file) }
		/^  Type: / { type = $2 }
		/^  Machine: / { mach = $0; sub(/^  Machine: */, "", mach) }
		/^  Data: / { data = $0; sub(/^.*, /, "", data) }
		/Requesting program interpreter:/ {
			interp = $0; sub(/.*interpreter: /, "", interp); sub(/\]$/, "", interp) }
		/\((RUNPATH|RPATH)\)/ {
			rpath = $0; sub(/.*path: \[/, "", rpath); sub(/\]$/, "", rpath) }
		/\(NEEDED\)/ {
			l = $0; sub(/.*library: \[/, "", l); sub(/\]$/, "", l); needed[++n] = l }
		END { flush() }')
	[ "$bad" = 0 ]
}

if [ "$(cat "$PKGTREE.stamp" 2>/dev/null)" != "$pkg_key" ]; then
	log "rootfs: unpacking ${#debs[@]} packages into $PKGTREE"
	rm -rf "$PKGTREE" "$PKGTREE.stamp"
	mkdir -p "$PKGTREE"/usr/{bin,sbin,lib}
	# Merged /usr, as bookworm has it: /bin, /sbin, /lib are links into
	# /usr, which tar keeps (dpkg-deb -x would replace them).
	ln -s usr/bin "$PKGTREE/bin"
	ln -s usr/sbin "$PKGTREE/sbin"
	ln -s usr/lib "$PKGTREE/lib"
	for deb in "${debs[@]}"; do
		dpkg-deb --fsys-tarfile "$deb"
	done | tar -x -i -p --no-same-owner --keep-directory-symlink -C "$PKGTREE"
	for l in bin sbin lib; do
		[ -L "$PKGTREE/$l" ] || die "/$l is no longer a link to usr/$l"
	done

	# Not needed in the guest: documentation, manuals, translations, and
	# glibc's iconv modules (20 MB; the C and UTF-8 charsets are built
	# into glibc, and nothing here converts between others).
	rm -rf "$PKGTREE"/usr/share/{doc,man,info,locale,lintian,bug,doc-base,bash-completion,zsh,menu} \
		"$PKGTREE"/usr/lib/$TRIPLET/gconv

	# What the maintainer scripts would have made: update-alternatives
	# links (the highest priority wins), e.g. awk -> gawk, nc -> ncat,
	# which -> which.debianutils.
	for deb in "${debs[@]}"; do
		dpkg-deb --ctrl-tarfile "$deb" | tar -xO --wildcards './postinst' 2>/dev/null || true
	done | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' |
		sed -n 's/.*update-alternatives .*--install  *\([^ ]*\)  *\([^ ]*\)  *\([^ ]*\)  *\([0-9][0-9]*\).*/\4 \2 \1 \3/p' |
		sort -k2,2 -k1,1nr | awk '!seen[$2]++ { print $3, $4 }' |
		while read -r link target; do
			case $link$target in *'$'*|*'"'*) continue ;; esac
			if [ -e "$PKGTREE$target" ] && [ ! -e "$PKGTREE$link" ] && [ ! -L "$PKGTREE$link" ]; then
				ln -s "$target" "$PKGTREE$link"
			fi
		done
	# /bin/sh: dash's (not in the lists), so busybox's ash.
	[ -e "$PKGTREE/usr/bin/sh" ] || ln -s busybox "$PKGTREE/usr/bin/sh"

	log "rootfs: checking the ELF files' dynamic dependencies"
	check_elfs "$PKGTREE" || die "libraries missing in the guest tree (see above)"
	echo "$pkg_key" >"$PKGTREE.stamp"
fi

# --- 4. the tree -----------------------------------------------------------------
rm -rf "$STAGE"
# Hard links: overlay files below replace (--remove-destination), never
# write through into $PKGTREE.
cp -al "$PKGTREE" "$STAGE"
mkdir -p "$STAGE"/{dev,proc,sys,tmp,run,root,mnt,var/tmp,var/log,etc}
rm -rf "$STAGE/var/run" "$STAGE/etc/mtab"
ln -s /run "$STAGE/var/run"
ln -s /proc/self/mounts "$STAGE/etc/mtab"
cp -a --no-preserve=ownership --remove-destination "$RDIR/overlay/." "$STAGE/"
chmod 1777 "$STAGE/tmp" "$STAGE/var/tmp"
chmod 700 "$STAGE/root"
rm -f "$STAGE/init"
install -m 0755 "$RDIR/init" "$STAGE/init"

if [ "$mod_state" != none ]; then
	mkdir -p "$STAGE/usr/lib/modules"
	cp -a --no-preserve=ownership "$MODDIR/." "$STAGE/usr/lib/modules/"
	# modules_install's links back into the kernel build tree
	find "$STAGE/usr/lib/modules" -maxdepth 2 -type l \( -name build -o -name source \) -delete
	log "rootfs: kernel modules: $(cd "$MODDIR" && echo *)"
elif [ "$LEVEL" = full ]; then
	log "rootfs: no kernel modules ($MODDIR missing), building without"
fi

# The DSA selftests and what they source (net/forwarding/lib.sh,
# net/lib.sh), in their tree layout: the dsa scripts are symlinks into
# net/forwarding. Our guest-side test scripts beside them.
if [ "$kst_state" != none ]; then
	kst=$STAGE/usr/lib/kselftest
	mkdir -p "$kst/net" "$kst/drivers/net"
	cp -a --no-preserve=ownership "$KSELFTEST/net/forwarding" "$kst/net/"
	cp -a --no-preserve=ownership "$KSELFTEST/net/lib.sh" "$kst/net/"
	cp -a --no-preserve=ownership "$KSELFTEST/drivers/net/dsa" "$kst/drivers/net/"
	log "rootfs: selftests: $(find "$kst" -name '*.sh' | wc -l) scripts in /usr/lib/kselftest"
fi
mkdir -p "$STAGE/usr/lib/ralink-fe"
cp -a --no-preserve=ownership "$TOP/tests/guest/." "$STAGE/usr/lib/ralink-fe/"

# Guest tools of our own (tests/tools), for what the selftests run and
# Debian does not package: msend and mreceive (one binary, two names);
# the model suite's garbage writer, poke; esw-dsa's frame fuzzer from the
# CPU's side, rawfuzz (base and net levels); ethstats, `ethtool -S` for
# the base level, which has no ethtool.
mkdir -p "$STAGE/usr/local/bin"
if [ "$LEVEL" = full ]; then
	${CROSS_COMPILE}gcc -O2 -Wall -Wextra -Werror \
		-o "$STAGE/usr/local/bin/msend" "$TOP/tests/tools/mtools.c"
	ln -f "$STAGE/usr/local/bin/msend" "$STAGE/usr/local/bin/mreceive"
	${CROSS_COMPILE}gcc -O2 -Wall -Wextra -Werror \
		-o "$STAGE/usr/local/bin/poke" "$TOP/tests/tools/poke.c"
	log "rootfs: guest tools: msend, mreceive, poke"
elif [ "$LEVEL" = net ]; then
	for t in poke rawfuzz; do
		${CROSS_COMPILE}gcc -O2 -Wall -Wextra -Werror \
			-o "$STAGE/usr/local/bin/$t" "$TOP/tests/tools/$t.c"
	done
	log "rootfs: guest tools: poke, rawfuzz"
else
	# The base initramfs has no C library (busybox-static): static
	for t in poke rawfuzz ethstats; do
		${CROSS_COMPILE}gcc -O2 -static -Wall -Wextra -Werror \
			-o "$STAGE/usr/local/bin/$t" "$TOP/tests/tools/$t.c"
	done
	log "rootfs: guest tools: poke, rawfuzz, ethstats (static)"
fi

# --- 5. the cpio -----------------------------------------------------------------
# Fixed timestamps, so that the same inputs give the same archive.
find "$STAGE" -exec touch -h -d @0 {} +
# /dev/console for the kernel's first open, before /init mounts devtmpfs.
# Making the node needs root, so it comes as a second, hand-made archive
# (the kernel unpacks concatenated archives in turn).
console_cpio() {
	local name=dev/console
	# newc: magic, ino, mode (char, 0600), uid, gid, nlink, mtime,
	# filesize, devmajor, devminor, rdevmajor 5, rdevminor 1, namesize, check
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		1 $((0020600)) 0 0 1 0 0 0 0 5 1 $((${#name} + 1)) 0
	printf '%s\0\0\0' "$name"	# 110 + 11 + NUL, padded to 124
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		0 0 0 0 1 0 0 0 0 0 0 11 0
	printf 'TRAILER!!!\0\0\0\0'	# 110 + 10 + NUL, padded to 124
}
{
	(cd "$STAGE" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --reproducible --quiet)
	console_cpio
} | if [ "$ROOTFS_COMPRESS" = gzip ]; then gzip -1 -n; else cat; fi >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "$key" >"$STAMP"
log "rootfs: $OUT: $(($(stat -c %s "$OUT") / 1024)) KiB, $(ms)"
