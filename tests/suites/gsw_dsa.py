#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gsw-dsa: what our ralink_mt7530 does on the MT7620's GSW that the DSA
selftests (gsw-selftests) do not look at, on the emulated MT7620A
evaluation board.

The mt76x8 kernel boots the test DT mt7620a-eval-gsw-256m.dts (the GSW's
five front ports as swp0-swp4, port 5 as swp5 with an RGMII PHY outside
the SoC, port 6 to the frame engine's MAC, 256 MiB)
with `kmemleak=on` and the initramfs with iproute2 and ethtool; our ralink_fe and
ralink_mt7530 load from modules.cpio, the tag driver (kernel/patches/0021)
is built in. Host peers A and B on ports 0 and 1, C on port 5 (ports
2-4 on hubs of their own). Checked:
- the drivers bind: swp0-swp5 (the MMIO front end, "ralink-mt7530-mmio");
- port 5: its PHY found through the switch's "mdio" node (phy-handle;
  the model's generic gigabit PHY at MDIO address 5, reached through
  PIAC as the internal ones, claimed by phylib's Generic PHY), swp5 up at
  1000 Mbit/s full duplex through phylink, `ethtool swp5` names PHY
  address 5; SYSCFG1's GE1 mode, left at RMII as a bootloader could
  leave it, is RGMII once the driver configured the port (broken once:
  without the driver's mac_config it stays RMII); C pings swp5's address
  and the board C; the link follows C's backend (set_link off: swp5's
  carrier goes, phylib polling the PHY; on: it comes back);
- standalone ports: A pings swp0's address and B swp1's (the port in the
  descriptors both ways: txd4's forced port map, rxd4's source port);
- ethtool -S swp0 names the GSW's 13 MIB counters (no MT7530 ones) and no
  rmon or pause group (the GSW's MIB has neither);
- a VLAN-unaware bridge of swp0 and swp1: 100,000 frames from A to B
  through the switch alone (tests/tools/soak.c), none lost; swp0's RxGood
  and swp1's TxGood count every one of them, past the 16-bit field's wrap
  (the driver accumulates; broken once: with the core's idle period the
  count came out modulo 65536), and the CPU got (almost) none; with swp5
  in the bridge too, 10,000 frames from A to C through port 5, none lost;
- the VLAN table's 16 slots: in a VLAN-aware bridge, VIDs up to the 16th
  entry are accepted (VLAN 0 and the default VLAN 1 hold two), the next
  is refused with the driver's message (a negative check), and accepted
  once a VID is deleted (its slot reused); A pings the bridge in VLAN 1
  after;
- the MTU: swp0's max MTU is the GSW's 2048-byte frame less header and
  FCS (no tag on the wire), max+1 refused;
- rmmod/modprobe of ralink_mt7530 and ralink_fe, sysfs unbind/bind of
  the switch, ours-eth's ROUNDS each, then A pings swp0;
- the GSW's core reset behind the driver (the model's fault-reset: every
  register back to its reset value, the CPU port's link no longer forced
  up): the driver notices (its MIB enable read back clear) and says so
  within RESET_SECS, and A pings swp0 again (broken once: with no
  register cache behind the MMIO front end the driver noticed, could not
  program the switch again, and regcache_sync() warned: the pings stayed
  unanswered and dmesg had a WARNING);
- kmemleak empty; dmesg clean; the QEMU log holds nothing unexpected.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board, dmesg_and_poweroff, dt_bootargs  # noqa: E402
import dsa  # noqa: E402
from peer import Peer, soak  # noqa: E402
from tap import Prefixed, Suite  # noqa: E402
sys.path.insert(0, os.path.dirname(__file__))
from ours_eth import loop  # noqa: E402

BOARD = 'mt7620a-eval'
DTB = 'mt7620a-eval-gsw-256m.dtb'
PORTS = ('swp0', 'swp1', 'swp2', 'swp3', 'swp4', 'swp5')
# The system controller's SYSCFG1 and its port 5 interface (GE1) mode:
# RMII (2) before the driver, RGMII (0) after
SYSCFG1 = 0x10000014
GE1_MODE_SHIFT, GE1_RMII = 12, 2
P5_SOAK = 10000
# The stats work looks for a core reset at least every 5 s
RESET_SECS = 10
# mt7620.c's mt7620_mibs
GSW_MIBS = ('TxGood', 'TxBad', 'TxBadBytes', 'TxBytes', 'TxDrop', 'RxGood',
            'RxBad', 'RxBadBytes', 'RxBytes', 'RxIngressDrop', 'RxCtrlDrop',
            'RxFiltering', 'RxArlDrop')
SOAK = 100000
# The GSW's 2048-byte frames (mt7620.c) less header and FCS
MAX_MTU = 2048 - 14 - 4
VLAN_SLOTS = 16
FULL = "The VLAN table's 16 entries are in use"
ETHTOOL = '/usr/sbin/ethtool'
BRIDGE = '/usr/sbin/bridge'
SW_DRV = '/sys/bus/platform/drivers/ralink-mt7530-mmio'
RMMOD = ('rmmod ralink_mt7530 && rmmod ralink_fe && modprobe ralink_fe && '
         'modprobe ralink_mt7530')
SW_UNBIND = ('echo 10110000.switch > {sw}/unbind && '
             'echo 10110000.switch > {sw}/bind').format(sw=SW_DRV)


def mib(b, port):
    out = b.check('%s -S %s' % (ETHTOOL, port))
    return {k: int(v) for k, v in re.findall(r'^\s*(\w+): (\d+)$', out,
                                             re.M)}


def rx_packets(b, dev):
    return int(b.check('cat /sys/class/net/%s/statistics/rx_packets' % dev))


def carrier(b, dev, want, secs):
    """@dev's carrier after waiting up to @secs for it to be @want."""
    return b.check('for i in $(seq %d); do grep -qx %s /sys/class/net/%s/'
                   'carrier && break; sleep 0.1; done; cat /sys/class/net/'
                   '%s/carrier' % (secs * 10, want, dev, dev)).strip()


def port5(t, b, c):
    """swp5: its external PHY, its interface mode, traffic with C and
    the link following C's backend."""
    dmesg = b.check('dmesg | grep swp5')
    t.result(re.search(r'swp5 \(uninitialized\): PHY '
                       r'\[10110000\.switch-phys:05\] driver \[Generic '
                       r'PHY\]', dmesg),
             'port 5: its PHY at MDIO address 5 through the "mdio" node '
             '(phy-handle), the Generic PHY', dmesg)
    b.check('ip link set eth0 up && ip link set swp5 up && '
            'ip addr add 192.0.2.1/24 dev swp5')
    up = carrier(b, 'swp5', 1, 10)
    out = b.check('%s swp5' % ETHTOOL)
    t.result(up == '1' and 'Speed: 1000Mb/s' in out and 'Duplex: Full'
             in out and 'PHYAD: 5' in out, 'swp5 up at 1000 Mbit/s full '
             'duplex, PHY address 5 (ethtool)', out + b.check('dmesg | '
                                                              'tail -5'))
    mode = int(b.check('devmem %#x 32' % SYSCFG1), 16) >> GE1_MODE_SHIFT & 3
    t.result(mode == 0, 'SYSCFG1: port 5\'s GE1 mode RGMII (0), from the '
             'RMII (%d) left before the driver' % GE1_RMII,
             'GE1 mode %d' % mode)
    rtt = c.ping('192.0.2.1', 1, wait=30)
    st, out = b.run('ping -c 2 -W 2 %s' % c.ip)
    t.result(isinstance(rtt, float) and st == 0, 'C pings swp5\'s '
             'address, the board pings C', '%s\n%s' % (rtt, out))
    b.hmp('set_link pc off')
    down = carrier(b, 'swp5', 0, 5)
    b.hmp('set_link pc on')
    back = carrier(b, 'swp5', 1, 10)
    t.result(down == '0' and back == '1', 'swp5\'s carrier follows C\'s '
             'backend: gone with set_link off, back with on',
             'off: %s, on: %s' % (down, back))
    b.check('ip addr flush dev swp5')


def main():
    suite = Suite('gsw-dsa')
    t = Prefixed(suite, BOARD)
    a = Peer('A', bytes.fromhex('02000000000a'), '192.0.2.10')
    bb = Peer('B', bytes.fromhex('02000000000b'), '198.51.100.11')
    c = Peer('C', bytes.fromhex('02000000000c'), '192.0.2.12')
    # The board's NICs go to ports 0, 1, ... in order: ports 2-4 get hub
    # ports of their own, port 5 gets C
    extra = a.netdev('pa') + bb.netdev('pb')
    for i in (2, 3, 4):
        extra += ['-netdev', 'hubport,id=h%d,hubid=%d' % (i, i),
                  '-net', 'nic,netdev=h%d,model=mt7530' % i]
    extra += c.netdev('pc')
    with Board(BOARD, dtb=DTB, mem='256M', rootfs='rootfs-net', extra=extra,
               append=dt_bootargs(DTB, 'mt76x8') + ' kmemleak=on') as b:
        b.wait_ready()
        b.check('dmesg -n 1')
        # busybox's sh runs its own applets first: iproute2's ip by its path
        b.check('ip() { /usr/bin/ip "$@"; }')
        b.check('devmem %#x 32 %#x' % (SYSCFG1, GE1_RMII << GE1_MODE_SHIFT))
        st, out = b.run('modprobe ralink_fe && modprobe ralink_mt7530 && '
                        'for i in $(seq 50); do [ -e /sys/class/net/swp5 ] '
                        '&& break; sleep 0.1; done; ls /sys/class/net; '
                        'ls %s' % SW_DRV)
        t.result(st == 0 and all(p in out.split() for p in PORTS) and
                 '10110000.switch' in out, 'ralink_fe and ralink_mt7530 '
                 '(MMIO front end) bind: swp0-swp5', out + b.check('dmesg'))
        if st:
            return 1
        port5(t, b, c)
        dsa.kmemleak_start(b)
        b.check('ip link set eth0 up && for p in %s; do ip link set $p up; '
                'done && ip addr add 192.0.2.1/24 dev swp0 && ip addr add '
                '198.51.100.1/24 dev swp1 && for i in $(seq 100); do '
                'cat /sys/class/net/swp[01]/carrier | tr -d "\\n" | '
                'grep -qx 11 && break; sleep 0.1; done' % ' '.join(PORTS))
        for peer, ip in ((a, '192.0.2.1'), (bb, '198.51.100.1')):
            rtt = peer.ping(ip, 1, wait=30)
            t.result(isinstance(rtt, float), 'standalone: %s pings its '
                     'port\'s address %s' % (peer.name, ip), str(rtt))

        out = b.check('%s -S swp0; %s -S swp0 --groups rmon; %s -S swp0 '
                      '--groups pause; true' % ((ETHTOOL,) * 3))
        names = re.findall(r'^\s*(\w+): \d+$', out, re.M)
        t.result(all(n in names for n in GSW_MIBS) and
                 'TxUnicast' not in names and 'rx_pkts_64_octets' not in out
                 and 'rx_pause_frames' not in out, 'ethtool -S: the GSW\'s '
                 '13 MIB counters, no rmon or pause group', out)

        # A VLAN-unaware bridge: the switch forwards A's frames to B
        b.check('ip addr flush dev swp0 && ip addr flush dev swp1 && '
                'ip link add br0 type bridge && ip link set swp0 master br0 '
                '&& ip link set swp1 master br0 && ip link set swp5 master '
                'br0 && ip link set br0 up && ip addr add 192.0.2.1/24 dev '
                'br0')
        a.ping('192.0.2.1', 2, wait=30)
        bb.ping('192.0.2.1', 3, wait=30)
        m0, m1 = mib(b, 'swp0'), mib(b, 'swp1')
        cpu0 = rx_packets(b, 'eth0')
        got, bad, dup, lost, secs = soak(a, bb, SOAK, 64, 2.0)
        t.result(got == SOAK and not (bad or dup or lost), 'bridge: %d '
                 'frames A to B, none lost (%.1f s)' % (SOAK, secs),
                 'received %d, corrupted %d, duplicated %d, lost %d'
                 % (got, bad, dup, lost))
        n0, n1 = mib(b, 'swp0'), mib(b, 'swp1')
        rx = n0['RxGood'] - m0['RxGood']
        tx = n1['TxGood'] - m1['TxGood']
        t.result(SOAK <= rx <= SOAK + 100 and SOAK <= tx <= SOAK + 100,
                 'the 16-bit counters accumulated past their wrap: swp0 '
                 'RxGood and swp1 TxGood count all %d' % SOAK,
                 'RxGood +%d, TxGood +%d' % (rx, tx))
        cpu = rx_packets(b, 'eth0') - cpu0
        t.result(cpu < SOAK // 100, 'the switch forwarded them: the CPU got '
                 '(almost) none', 'eth0 rx +%d' % cpu)
        c.ping('192.0.2.1', 5, wait=30)
        got, bad, dup, lost, secs = soak(a, c, P5_SOAK, 64, 2.0)
        t.result(got == P5_SOAK and not (bad or dup or lost), 'bridge: %d '
                 'frames A to C through port 5, none lost (%.1f s)'
                 % (P5_SOAK, secs), 'received %d, corrupted %d, duplicated '
                 '%d, lost %d' % (got, bad, dup, lost))

        # The VLAN table's slots: VLAN 0 and the bridge's VLAN 1 hold two
        b.check('ip link set br0 type bridge vlan_filtering 1')
        vids = list(range(2, VLAN_SLOTS))
        st, out = b.run('for v in %s; do %s vlan add dev swp0 vid $v || '
                        'exit 1; done' % (' '.join(map(str, vids)), BRIDGE))
        t.result(st == 0, 'VLAN table: VIDs 2-%d accepted (%d slots with '
                 'VLAN 0 and 1)' % (vids[-1], VLAN_SLOTS), out)
        st, out = b.run('%s vlan add dev swp0 vid 100' % BRIDGE)
        t.result(st != 0 and FULL in out, 'VLAN table (negative): a 17th '
                 'entry is refused with "%s"' % FULL, '%d %s' % (st, out))
        st, out = b.run('%s vlan del dev swp0 vid 2 && %s vlan add dev swp0 '
                        'vid 100' % (BRIDGE, BRIDGE))
        t.result(st == 0, 'VLAN table: once VID 2 is deleted, VID 100 takes '
                 'its slot', out)
        rtt = a.ping('192.0.2.1', 4, wait=30)
        t.result(isinstance(rtt, float), 'VLAN-aware bridge: A pings br0 '
                 'in VLAN 1', str(rtt))
        b.check('ip link del br0')

        st, out = b.run('ip link set swp0 mtu %d && echo max-ok; ip link '
                        'set swp0 mtu %d; echo rc=$?; ip link set swp0 mtu '
                        '1500' % (MAX_MTU, MAX_MTU + 1))
        t.result('max-ok' in out and 'rc=0' not in out and 'rc=' in out,
                 'MTU: '
                 'swp0 takes %d, %d is refused' % (MAX_MTU, MAX_MTU + 1),
                 out)

        loop(t, b, 'rmmod/modprobe ralink_mt7530 and ralink_fe', RMMOD)
        loop(t, b, 'sysfs unbind/bind the switch (ralink-mt7530-mmio)',
             SW_UNBIND)
        st, out = b.run('ip link set eth0 up && ip link set swp0 up && '
                        'ip addr add 192.0.2.1/24 dev swp0 && for i in '
                        '$(seq 100); do grep -q 1 /sys/class/net/swp0/'
                        'carrier && break; sleep 0.1; done')
        rtt = a.ping('192.0.2.1', 300, wait=30) if st == 0 else out
        t.result(isinstance(rtt, float), 'after the loops A pings swp0',
                 str(rtt))
        out = b.hmp('qom-set /machine/soc/gsw fault-reset on')
        log = b.check('for i in $(seq %d); do dmesg | grep -q "reset behind '
                      'the driver" && break; sleep 0.1; done; dmesg | grep '
                      '"reset behind the driver"; true' % (RESET_SECS * 10))
        rtt = a.ping('192.0.2.1', 301, wait=RESET_SECS)
        t.result('reset behind the driver' in log and isinstance(rtt, float),
                 'the GSW\'s core reset behind the driver: noticed, and A '
                 'pings swp0 again', '%s %s\n%s' % (out, log, rtt))
        leaks = dsa.kmemleak_leaks(b)
        t.result(not leaks, 'kmemleak empty after the tests and loops',
                 leaks[:3000])
        dmesg_and_poweroff(t, b, '')
    t.qemu_log(b, BOARD)
    return 0


if __name__ == '__main__':
    sys.exit(main())
