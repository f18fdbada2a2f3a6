#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# board-up.sh: what `make run` has the guest do before its shell starts
# (rootfs/init calls it when the kernel command line has rfe.drivers=):
#
#   rfe.drivers=SET   load the driver set SET (load-drivers.sh: ours,
#                     mainline, ...) and wait for the switch's user ports
#                     the device tree enables, under their DT labels;
#                     bring them up
#   rfe.dhcp=PORT     DHCP client (busybox udhcpc) on PORT (the WAN port
#                     on QEMU's user networking: 10.0.2.15)
#   rfe.lan=PORT=ADDR/LEN  a static address on PORT
#
# Then busybox's telnetd (port 23, a root shell without login: the
# board is reachable only from the host's loopback through QEMU's
# hostfwd) and httpd (port 80, /srv/www) run. One line per step goes to
# the console. POSIX sh: the single-core boards' initramfs has busybox's
# sh only. A switch without user ports in its DT (mainline on the ESW:
# no driver for it; the RT3052's: no driver at all), or no switch (the
# RT3883's and RT2880's GMAC), has the frame engine's eth0 as its one
# port.
set -u
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/busybox

say() { echo "ralink-fe: $*"; }

drivers= dhcp= lan=
for arg in $(cat /proc/cmdline); do
	case $arg in
	rfe.drivers=*) drivers=${arg#*=} ;;
	rfe.dhcp=*) dhcp=${arg#*=} ;;
	rfe.lan=*) lan=${arg#*=} ;;
	esac
done
[ -n "$drivers" ] || exit 0

# The user ports the DT enables: a label, no "ethernet" (a CPU port),
# status absent or "okay" (the MT7530 behind the MT7621's MDIO bus, the
# ESW at the top of the MT7628's and the RT5350's trees). Labels have no
# spaces.
ports=
for p in /proc/device-tree/ethernet@*/mdio-bus/switch@*/ports/port@* \
	 /proc/device-tree/switch@*/ports/port@*; do
	[ -r "$p/label" ] && [ ! -e "$p/ethernet" ] || continue
	if [ -r "$p/status" ]; then
		case $(tr -d '\0' <"$p/status") in okay|ok) ;; *) continue ;; esac
	fi
	ports="$ports $(tr -d '\0' <"$p/label")"
done
[ "$drivers" = mainline ] && grep -q -e mt7628 -e rt5350 \
	/proc/device-tree/compatible && ports=eth0
# The RT3052's switch has no driver, the RT3883 and RT2880 no switch: eth0
# whatever the set
grep -q -e rt3052 -e rt3883 -e rt2880 /proc/device-tree/compatible &&
	ports=eth0

# shellcheck disable=SC2086
if ! /usr/lib/ralink-fe/load-drivers.sh "$drivers" $ports; then
	say "loading the $drivers drivers failed"
	exit 1
fi
# Kernel messages back on the console (load-drivers.sh quietened them).
dmesg -n 7
for p in $ports; do
	ip link set "$p" up
done
say "$drivers drivers loaded; ports $(echo $ports) up"

if [ -n "$dhcp" ]; then
	# -n: give up if no lease; -q: exit once bound; -t 10: 10 tries.
	if udhcpc -i "$dhcp" -n -q -t 10 -s /usr/lib/ralink-fe/udhcpc.script \
		>/dev/null 2>&1; then
		say "$dhcp: $(ip -4 addr show dev "$dhcp" | awk '/inet / { print $2 }') (DHCP)"
	else
		say "$dhcp: no DHCP lease"
	fi
fi

# After the lease: udhcpc's script flushes its port's addresses (the
# RT3052's eth0 is the LAN's too)
if [ -n "$lan" ]; then
	ip addr add "${lan#*=}" dev "${lan%%=*}" &&
		say "${lan%%=*}: ${lan#*=}"
fi

mkdir -p /srv/www
{
	echo "<html><body><h1>$(hostname)</h1><pre>"
	uname -a
	ip addr
	echo "</pre></body></html>"
} >/srv/www/index.html
shell=/bin/sh
[ -x /bin/bash ] && shell=/bin/bash
telnetd -l $shell
httpd -h /srv/www
say "telnetd on port 23, httpd on port 80"
