#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fe-eth: our frame-engine driver (ralink_fe) on the VoCore2's MT7628,
the checks of ours-eth that its frame engine has the hardware for.

The MT7628's frame engine (fe_rt5350.c) sends through PDMA TX ring 0
(fe_tx_pdma.c) and has the SDM instead of GDMAs (fe_sdm.c): one port, to
the ESW's CPU port, no TX checksums or TSO, no pause or length error
counters. One board, booted with `kmemleak=on`; host peer A on switch
port 0. The ESW is left the unmanaged switch it is out of reset for the
checks on eth0 (their frames carry no tag), then ralink_esw takes it for
the loops, as the conduit's DSA user does. Checked:
- ethtool on eth0: driver name, 1000/full (the fixed link to the
  switch), ring sizes, interrupt coalescing (adaptive by default; with it
  off the PDMA's delay timer holds each received frame: rx-usecs 5100
  with rx-frames 127 makes every ping of A take at least 5.1 ms,
  rx-frames 1 signals each frame at once) and the rx- and tx-copybreak
  tunables changed and read back (A's pings pass after each, values out
  of range refused), BQL limits in sysfs (ours-eth's ethtool_basics());
  the SDM's counters in ethtool -S and no pause or rmon statistics (the
  SDM counts neither: nothing made up);
- MTU: eth0's max MTU is the SDM's (1536-byte frames), max+1 is refused,
  and a DF ping of A at that MTU passes (A answers in as long a frame);
- XDP_DROP: A's pings go unanswered, xdp_drop counts them, traffic back
  after detach;
- XDP_TX and XDP_REDIRECT (ndo_xdp_xmit to eth0 itself): A's echo
  requests come back to A with the MAC addresses swapped
  (tests/xdp/xdp_test.c's *_eth programs), counted by xdp_tx, or by
  xdp_redirect and xdp_xmit;
- TX timeout: clearing PDMA_GLO_CFG's TX_DMA_EN (devmem) stalls TX, the
  watchdog fires, the driver resets the DMA, pings pass again and TX DMA
  is on again;
- with ralink_esw on the switch: rmmod/modprobe of both drivers, sysfs
  unbind/bind of ralink_fe (DSA's device link unbinds the switch with
  it: bound again after) and of the switch, 100 rounds each (ours-eth's
  ROUNDS; swp3 comes back each time), then A pings swp0; kmemleak is
  empty; dmesg has no WARNING/BUG/Oops (dmesg_and_poweroff()).
The QEMU log holds nothing unexpected. Then one boot per broken DT
(ours-eth's bad_dt(): fdtput on the test DTB, written to
build/tests/fe-eth/), for the frame engine and for the switch: probe
fails with a dev_err naming the property, no oops.
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import BUILD, Board, dt_bootargs, dmesg_and_poweroff  # noqa: E402
import dsa  # noqa: E402
from peer import Peer  # noqa: E402
from tap import Prefixed, Suite  # noqa: E402
from xdp import build_xdp  # noqa: E402
sys.path.insert(0, os.path.dirname(__file__))
from ours_eth import (ROUNDS, BadDtBed, Fail, bad_dt,  # noqa: E402
                      build_bad_dtbs, case_tx_timeout, case_xdp_drop, delta,
                      ethtool_basics, loop, need, ping, ping_ok, stats)

BOARD = 'vocore2'
DTB = 'mt7628-vocore2-esw.dtb'
IP_BOARD = '192.0.2.1'
MAC_A, IP_A = bytes.fromhex('02000000000a'), '192.0.2.10'
# The frame engine (the DT's "reg") and PDMA_GLO_CFG
FE_BASE = 0x10100000
PDMA_GLO_CFG = 0x0a04
# fe_rt5350.c's max_frame less header and FCS
MAX_MTU = 1536 - 14 - 4
# The SDM's counters (fe_sdm.c), what ethtool -S shows of the hardware
SDM_STATS = ('tx_bytes', 'tx_packets', 'rx_bytes', 'rx_packets',
             'rx_checksum_errors')
RMMOD = ('rmmod ralink_esw && rmmod ralink_fe && modprobe ralink_fe && '
         'modprobe ralink_esw')
FE_DRV = '/sys/bus/platform/drivers/ralink_fe'
SW_DRV = '/sys/bus/platform/drivers/ralink-esw'
# DSA's device link (the switch a consumer of its conduit's device) unbinds
# the switch with the frame engine, and nothing binds it again: the ESW
# is no child of the frame engine, as the MT7530 is on the MT7621.
UNBIND = ('echo 10100000.ethernet > {fe}/unbind && '
          'echo 10100000.ethernet > {fe}/bind && '
          'echo 10110000.switch > {sw}/bind').format(fe=FE_DRV, sw=SW_DRV)
SW_UNBIND = ('echo 10110000.switch > {sw}/unbind && '
             'echo 10110000.switch > {sw}/bind').format(sw=SW_DRV)
OUT = os.path.join(BUILD, 'tests', 'fe-eth')
ETH = '/ethernet@10100000'
SW = '/switch@10110000'
# As ours-eth's BAD_DT: (fdtput edits, the property the dev_err must name,
# whose probe fails)
BAD_DT = {
    'no interrupts': ([['-d', ETH, 'interrupts']], 'interrupts', 'fe'),
    'no reset-names': ([['-d', ETH, 'reset-names']], 'reset', 'fe'),
    'phy-mode "bogus"': ([['-t', 's', ETH + '/mac@0', 'phy-mode', 'bogus']],
                         'phy-mode', 'fe'),
    'mac@0 reg 7': ([['-t', 'i', ETH + '/mac@0', 'reg', '7']], 'reg', 'fe'),
    'fixed-link speed 0': ([['-t', 'i', ETH + '/mac@0/fixed-link', 'speed',
                             '0']], 'speed', 'fe'),
    'switch without ports': ([['-r', SW + '/ports']], 'ports', 'switch'),
    'switch without reset-names': ([['-d', SW, 'reset-names']], 'reset',
                                   'switch'),
    'CPU port reg 5': ([['-t', 'i', SW + '/ports/port@6', 'reg', '5']], 'reg',
                       'switch'),
    'user port reg 5': ([['-t', 'i', SW + '/ports/port@4', 'reg', '5']], 'reg',
                        'switch'),
}
VOCORE2_BAD = BadDtBed('VoCore2: ', BOARD, 'mt76x8', DTB,
                       ('ralink_fe', 'ralink_esw'),
                       r'ralink|10100000|10110000', FE_DRV, SW_DRV,
                       r'ethernet|switch', ['eth0'], list, BAD_DT)


def case_ethtool(b):
    seen = ethtool_basics(b, IP_A, crossings=1)
    s = stats(b)
    need(all(k in s for k in SDM_STATS) and s['rx_packets'] > 0 and
         s['tx_packets'] > 0, 'SDM counters in ethtool -S: %s' % s)
    need('rx_overflow' not in s and 'rx_fcs_errors' not in s,
         'counters the SDM does not have in ethtool -S: %s' % s)
    pause = b.check('ethtool -I -a eth0')
    need('rx_pause_frames' not in pause, pause)
    std = b.check('ethtool -S eth0 --groups rmon')
    need('etherStatsUndersizePkts' not in std, std)
    return seen + '; SDM rx_packets %d tx_packets %d' % (s['rx_packets'],
                                                          s['tx_packets'])


def case_mtu(b):
    out = b.check('ip -d link show eth0')
    m = re.search(r'maxmtu (\d+)', out)
    need(m and int(m.group(1)) == MAX_MTU, 'eth0 maxmtu: want %d\n%s'
         % (MAX_MTU, out))
    st, out = b.run('ip link set eth0 mtu %d 2>&1' % (MAX_MTU + 1))
    need(st != 0, 'MTU %d accepted' % (MAX_MTU + 1))
    size = MAX_MTU - 20 - 8
    try:
        b.check('ip link set eth0 mtu %d' % MAX_MTU)
        got, out = ping(b, 3, size=size, dst=IP_A)
        need(got == 3, 'DF ping of %d bytes (%d-byte frames): %d/3 replies'
             '\n%s' % (size, MAX_MTU + 14, got, out))
    finally:
        b.check('ip link set eth0 mtu 1500')
    return 'max MTU %d; DF ping of A with %d bytes' % (MAX_MTU, size)


def case_reflect(b, a, board_mac, sec, counters):
    """XDP program @sec reflects A's echo requests back to A."""
    s0 = stats(b)
    b.check('ip link set dev eth0 xdpdrv obj /tmp/xdp.o sec %s' % sec)
    try:
        since = a.mark()
        got = a.ping(IP_BOARD, 7)
        back = a.wait(lambda f: f[0:6] == a.mac and f[6:12] == board_mac and
                      f[12:14] == b'\x08\x00' and f[23] == 1 and f[34] == 8,
                      5, since)
        for seq in range(5):
            a.ping(IP_BOARD, 100 + seq, wait=1)
        n = sum(1 for f in a.frames[since:]
                if f[0:6] == a.mac and f[6:12] == board_mac and
                f[12:14] == b'\x08\x00' and f[23] == 1 and f[34] == 8)
        s1 = stats(b)
    finally:
        b.check('ip link set dev eth0 xdpdrv off')
    need(back and n >= 6, '%s: A got %d of its 6 echo requests back '
         '(the board answered: %r)' % (sec, n, got))
    need(not isinstance(got, float), '%s: the board answered A' % sec)
    counted = {c: delta(s1, s0, c) for c in counters}
    need(all(v >= 6 for v in counted.values()), '%s: %s' % (sec, counted))
    rtt = a.ping(IP_BOARD, 200)
    need(isinstance(rtt, float), 'after the XDP program was removed: %s'
         % rtt)
    return 'A got %d echo requests back, %s' % (
        n, ', '.join('%s +%d' % c for c in counted.items()))


def main():
    suite = Suite('fe-eth')
    t = Prefixed(suite, BOARD)
    xdp = build_xdp()
    a = Peer('A', MAC_A, IP_A)
    with Board(BOARD, dtb=DTB, extra=a.netdev('pa', model='ralink-esw'),
               append=dt_bootargs(DTB, 'mt76x8') + ' kmemleak=on') as b:
        b.wait_ready()
        b.check('dmesg -n 1')
        # busybox's sh runs its own applets first: iproute2's ip (XDP,
        # ip -d) and iputils' ping (-M do) by their paths
        b.check('ip() { /usr/bin/ip "$@"; }; ping() { /usr/bin/ping "$@"; }')
        st, out = b.run('modprobe ralink_fe && basename $(readlink '
                        '/sys/class/net/eth0/device/driver)')
        t.result(st == 0 and out.split()[-1:] == ['ralink_fe'],
                 'ralink_fe binds the frame engine', out)
        if st:
            return 1
        dsa.kmemleak_start(b)
        with open(xdp, 'rb') as f:
            b.put('/tmp/xdp.o', f.read())
        b.check('ip link set eth0 up && ip addr add %s/24 dev eth0'
                % IP_BOARD)
        ping_ok(b, 'set-up', wait=30, dst=IP_A)
        board_mac = bytes.fromhex(b.check(
            'cat /sys/class/net/eth0/address').strip().replace(':', ''))

        t.check('ethtool: drvinfo, link, ring sizes, coalescing, '
                'copybreaks, BQL, the SDM counters and no pause or rmon '
                'statistics', lambda: case_ethtool(b))
        t.check('MTU: max %d accepted, %d refused, DF ping at the max '
                'passes' % (MAX_MTU, MAX_MTU + 1), lambda: case_mtu(b))
        t.check('XDP_DROP: frames dropped and counted, traffic back after '
                'detach', lambda: case_xdp_drop(b, IP_A))
        t.check('XDP_TX: A gets its echo requests back',
                lambda: case_reflect(b, a, board_mac, 'xdp_tx_eth',
                                     ['xdp_tx']))
        t.check('XDP_REDIRECT to eth0 (ndo_xdp_xmit): A gets its echo '
                'requests back',
                lambda: case_reflect(b, a, board_mac, 'xdp_redirect_eth',
                                     ['xdp_redirect', 'xdp_xmit']))
        t.check('TX timeout: TX DMA stalled, watchdog fires, DMA reset, '
                'traffic recovers',
                lambda: case_tx_timeout(b, FE_BASE + PDMA_GLO_CFG, IP_A))

        b.check('ip addr flush dev eth0 && modprobe ralink_esw && '
                'for i in $(seq 50); do [ -e /sys/class/net/swp3 ] && '
                'break; sleep 0.1; done; [ -e /sys/class/net/swp3 ]')
        loop(t, b, 'rmmod/modprobe ralink_esw and ralink_fe', RMMOD)
        loop(t, b, 'sysfs unbind/bind ralink_fe (and bind the switch '
             'again)', UNBIND)
        loop(t, b, 'sysfs unbind/bind the switch (ralink-esw)', SW_UNBIND)
        st, out = b.run('ip link set eth0 up && ip link set swp0 up && '
                        'ip addr add %s/24 dev swp0 && for i in $(seq 100); '
                        'do grep -q 1 /sys/class/net/swp0/carrier && break; '
                        'sleep 0.1; done' % IP_BOARD)
        rtt = a.ping(IP_BOARD, 300) if st == 0 else out
        t.result(isinstance(rtt, float), 'after the loops A pings swp0 '
                 '(ralink_esw over ralink_fe)', str(rtt))
        leaks = dsa.kmemleak_leaks(b)
        t.result(not leaks, 'kmemleak empty after the tests and loops',
                 leaks[:3000])
        dmesg_and_poweroff(t, b, '')
    t.qemu_log(b, BOARD)
    os.makedirs(OUT, exist_ok=True)
    for name, dtb in build_bad_dtbs(VOCORE2_BAD, OUT).items():
        bad_dt(suite, VOCORE2_BAD, name, dtb)
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except Fail as e:
        print('Bail out! %s' % e)
        sys.exit(1)
