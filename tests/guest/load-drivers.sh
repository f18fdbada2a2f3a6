#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# load-drivers.sh SET IFACE...: load the Ethernet + switch driver set SET
# and wait up to 20 s for the switch's user ports IFACE... to appear.
# On the MT7621:
#   mainline  mtk_eth (mtk_eth_soc.c) + mt7530-mdio, and what they pull in
#   ours      ralink_fe + ralink_mt7530 (kernel/drivers/net/...)
#   mainline-eth+ours-dsa, ours-eth+mainline-dsa: one of each, to debug
#             one of our drivers against the other's mainline counterpart
# On the SoCs with the ESW (MT7628, RT5350):
#   mainline  mtk_eth (mainline has no driver for the ESW)
#   ours      ralink_fe + ralink_esw
# On the RT3052 (no mainline driver for its frame engine, none for its
# switch: no special tag is known for it), the RT3883 and the RT2880 (no
# mainline driver, no switch: a GMAC with an external PHY):
#   ours      ralink_fe
# On the MT7620 (no mainline driver for its frame engine or its GSW):
#   ours      ralink_fe + ralink_mt7530
# Kernel messages stop going to the console (they would split the tests'
# output lines); dmesg still has them. POSIX sh: the single-core boards'
# initramfs has busybox's sh only.
set -u
set=${1:?usage: load-drivers.sh mainline IFACE...}
shift

dmesg -n 1
if grep -q -e rt3052 -e rt3883 -e rt2880 /proc/device-tree/compatible; then
	case $set in
	ours) modules=ralink_fe ;;
	*) echo "load-drivers.sh: no driver set $set here" >&2; exit 2 ;;
	esac
elif grep -q mt7620a /proc/device-tree/compatible; then
	case $set in
	ours) modules="ralink_fe ralink_mt7530" ;;
	*) echo "load-drivers.sh: no driver set $set here" >&2; exit 2 ;;
	esac
elif grep -q -e mt7628 -e rt5350 /proc/device-tree/compatible; then
	case $set in
	mainline) modules=mtk_eth ;;
	ours) modules="ralink_fe ralink_esw" ;;
	*) echo "load-drivers.sh: no driver set $set here" >&2; exit 2 ;;
	esac
else
	case $set in
	mainline) modules="mtk_eth mt7530-mdio" ;;
	ours) modules="ralink_fe ralink_mt7530" ;;
	mainline-eth+ours-dsa) modules="mtk_eth ralink_mt7530" ;;
	ours-eth+mainline-dsa) modules="ralink_fe mt7530-mdio" ;;
	*) echo "load-drivers.sh: unknown driver set $set" >&2; exit 2 ;;
	esac
fi
for m in $modules; do
	modprobe "$m" || { echo "load-drivers.sh: modprobe $m failed" >&2; exit 1; }
done

for _ in $(seq 200); do
	missing=
	for i in "$@"; do
		[ -e "/sys/class/net/$i" ] || missing="$missing $i"
	done
	[ -z "$missing" ] && exit 0
	sleep 0.1
done
echo "load-drivers.sh: no$missing after 20 s" >&2
dmesg | tail -n 30 >&2
exit 1
