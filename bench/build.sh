#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/build.sh: build what `make bench` adds to the board, in build/bench/:
#   libinsn_window.so  the QEMU TCG plugin (host gcc, QEMU 7.2's plugin API
#                      header from build/qemu/)
#   bench-udp          the guest tool (mipsel cross gcc, dynamic: the guest
#                      has Debian bookworm's mipsel glibc)
#   bench-nat          the route-nat rows' masquerade rule (nf_tables over
#                      netlink: the guest has no nft), built the same way
#   initrd.cpio[.gz]   the rootfs (build/rootfs.cpio or .cpio.gz, the name
#                      follows it) with usr/bin/bench-udp and bench-nat
#                      added: a second, gzip'd newc archive after the first
#                      (Linux unpacks concatenated initramfs archives in
#                      order)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
out=$build/bench
mkdir -p "$out"

# shellcheck disable=SC2046
gcc -shared -fPIC -O2 -Wall -Werror -I "$build/qemu" \
	$(pkg-config --cflags glib-2.0) \
	-o "$out/libinsn_window.so" "$top/bench/plugin/insn_window.c"

mipsel-linux-gnu-gcc -O2 -Wall -Werror -o "$out/bench-udp" \
	"$top/bench/guest/bench-udp.c"
mipsel-linux-gnu-gcc -O2 -Wall -Werror -o "$out/bench-nat" \
	"$top/bench/guest/bench-nat.c"

rootfs=
for f in "$build/rootfs.cpio" "$build/rootfs.cpio.gz"; do
	[ -e "$f" ] && { rootfs=$f; break; }
done
[ -n "$rootfs" ] || { echo "bench/build.sh: no rootfs in $build" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/usr/bin"
install -m 0755 "$out/bench-udp" "$stage/usr/bin/bench-udp"
install -m 0755 "$out/bench-nat" "$stage/usr/bin/bench-nat"
# The same archive for the same files: their times are the epoch (the
# archive's bytes end up in the guest, whose run the bench repeats)
(cd "$stage" && touch -h -d @0 usr usr/bin usr/bin/bench-udp usr/bin/bench-nat &&
	printf '%s\n' usr usr/bin usr/bin/bench-udp usr/bin/bench-nat |
	cpio --quiet -o -H newc -R 0:0 --reproducible | gzip -9 -n > "$out/extra.cpio.gz")
initrd=$out/initrd${rootfs#"$build"/rootfs}
rm -f "$out"/initrd.cpio "$out"/initrd.cpio.gz
cat "$rootfs" "$out/extra.cpio.gz" > "$initrd.tmp"
mv "$initrd.tmp" "$initrd"
