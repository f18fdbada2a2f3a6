#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-fit.sh: the FIT image U-Boot TFTP-boots on the emulated GnuBee
# (issue 17; uboot/gnubee-ram.env): build/tftp/gnubee.itb with
#   kernel       build/kernel/main/vmlinux as a raw image at its load
#                address, uncompressed (decompressing costs more
#                emulated time than the bytes cost over TFTP)
#   fdt-gb-pc1,  the GnuBee DTBs of the same kernel build
#   fdt-gb-pc2
#   initramfs    build/rootfs.cpio (make rootfs)
# and a configuration per board (gb-pc1, the default, and gb-pc2), each
# image with a CRC-32 that bootm checks. Made with U-Boot's own mkimage
# (make uboot); rebuilt only when an input changed.
set -euo pipefail
. "$(dirname "$0")/env.sh"

KDIR=$BUILD/kernel/main
ROOTFS=$BUILD/rootfs.cpio
MKIMAGE=$BUILD/u-boot/mkimage
OUT=$BUILD/tftp
FIT=$OUT/gnubee.itb
DTBS=(mt7621-gnubee-gb-pc1.dtb mt7621-gnubee-gb-pc2.dtb)
# Each DTB's name in the FIT, its configuration's: gb-pc1, gb-pc2
NAMES=()
for d in "${DTBS[@]}"; do
	d=${d#mt7621-gnubee-}
	NAMES+=("${d%.dtb}")
done

for f in "$KDIR/vmlinux" "$ROOTFS" "$MKIMAGE" "${DTBS[@]/#/$KDIR/dtbs/}"; do
	[ -f "$f" ] || die "$f missing: make kernel rootfs uboot"
done

key=$( (stat -c '%n %s %Y' "$KDIR/vmlinux" "$ROOTFS" "$MKIMAGE" \
	"${DTBS[@]/#/$KDIR/dtbs/}"; cat "$0") | sha256sum | cut -c1-16)
if [ "$(cat "$FIT.key" 2>/dev/null)" = "$key" ] && [ -f "$FIT" ]; then
	exit 0
fi

mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The kernel's load address: its first loadable segment's; its entry
# point: the ELF's.
load=$("${CROSS_COMPILE}readelf" -lW "$KDIR/vmlinux" |
	awk '$1 == "LOAD" { print $3; exit }')
entry=$("${CROSS_COMPILE}readelf" -hW "$KDIR/vmlinux" |
	awk '/Entry point address/ { print $4 }')
[ -n "$load" ] && [ -n "$entry" ] || die "no load address or entry in vmlinux"
"${CROSS_COMPILE}objcopy" -O binary "$KDIR/vmlinux" "$work/vmlinux.bin"

cat >"$work/gnubee.its" <<EOF
/dts-v1/;

/ {
	description = "GnuBee GB-PC1/PC2: Linux with the ralink-fe drivers";
	#address-cells = <1>;

	images {
		kernel {
			description = "Linux";
			data = /incbin/("$work/vmlinux.bin");
			type = "kernel";
			arch = "mips";
			os = "linux";
			compression = "none";
			load = <$load>;
			entry = <$entry>;
			hash { algo = "crc32"; };
		};
$(for i in "${!DTBS[@]}"; do
	b=${NAMES[$i]}
	printf '\t\tfdt-%s {\n' "$b"
	printf '\t\t\tdescription = "GnuBee %s";\n' "${b^^}"
	printf '\t\t\tdata = /incbin/("%s");\n' "$KDIR/dtbs/${DTBS[$i]}"
	printf '\t\t\ttype = "flat_dt";\n\t\t\tarch = "mips";\n'
	printf '\t\t\tcompression = "none";\n'
	printf '\t\t\thash { algo = "crc32"; };\n\t\t};\n'
done)
		initramfs {
			description = "Debian userspace and the tests' tools";
			data = /incbin/("$ROOTFS");
			type = "ramdisk";
			arch = "mips";
			os = "linux";
			compression = "none";
			hash { algo = "crc32"; };
		};
	};

	configurations {
		default = "gb-pc1";
$(for b in "${NAMES[@]}"; do
	printf '\t\t%s {\n\t\t\tdescription = "GnuBee %s";\n' "$b" "${b^^}"
	printf '\t\t\tkernel = "kernel";\n\t\t\tfdt = "fdt-%s";\n' "$b"
	printf '\t\t\tramdisk = "initramfs";\n\t\t};\n'
done)
	};
};
EOF
# mkimage's "Created" stamps: the newest input's time, not the build's.
SOURCE_DATE_EPOCH=$(stat -c %Y "$KDIR/vmlinux" "$ROOTFS" | sort -n | tail -n1)
export SOURCE_DATE_EPOCH
log "fit: $(realpath --relative-to="$TOP" "$FIT") (kernel at $load, entry $entry)"
"$MKIMAGE" -f "$work/gnubee.its" "$FIT.tmp" >"$work/mkimage.log" 2>&1 ||
	{ cat "$work/mkimage.log" >&2; die "mkimage failed"; }
mv "$FIT.tmp" "$FIT"
echo "$key" >"$FIT.key"
