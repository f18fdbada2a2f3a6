#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fe-eth: our frame-engine driver (ralink_fe) on every board whose frame
engine sends through PDMA, the checks of ours-eth that each has the
hardware for.

One bed per board (BEDS: data), every line named with its board: one
boot for every live check, and one short boot per broken DT. The live
boots run one after another, each with `kmemleak=on` and the initramfs
with iproute2, iputils' ping and ethtool (rootfs-net), host peer A on
its board's first port:
- vocore2 (the MT7628, fe_rt5350.c): PDMA TX ring 0 (fe_tx_pdma.c) and
  the SDM instead of GDMAs (fe_sdm.c): one port, to the ESW's CPU port,
  no TX checksums or TSO, no pause or length error counters. A on switch
  port 0; the ESW is left the unmanaged switch it is out of reset for
  the checks on eth0 (their frames carry no tag), then ralink_esw takes
  it for the loops, as the conduit's DSA user does.
- mt7620a-eval (the MT7620A, fe_mt7620.c: the RT5350's PDMA map, GDMA1
  and its counters in the RT305x's layout; test DT
  mt7620a-eval-gsw-256m.dts, 256 MiB): A on the GSW's port 0. The GSW is
  left unmanaged for the checks on eth0, with its CPU port forced to a
  1 Gbit/s link as the bootloader leaves it (esw-net's BOOTLOADER: out
  of reset port 6 passes nothing), then our ralink_mt7530 takes it
  through its MMIO front end ("mediatek,mt7620-gsw") for the MTU's
  largest frame and the loops.
- rt3883-eval and rt2880-eval (fe_rt2880.c: the older map, PDMA_GLO_CFG
  at 0x100, GDMA1 and its counters at 0x700): no switch; GDMA1's GMAC to
  a PHY on the frame engine's MDIO (gmac-net), A on the board's one NIC.
  Their boards have 32 MiB, too little for rootfs-net: the suite's copy
  of their DTB has 128 MiB (the SoCs' DRAM windows take it) and QEMU -m
  128M.
Checked, per board:
- ethtool on eth0: driver name, 1000/full (the fixed link to the switch;
  on the RT3883 and RT2880 the PHY's, autonegotiated: an external
  transceiver at address 0), ring sizes, interrupt coalescing (adaptive
  by default; with it off the PDMA's delay timer holds each received
  frame: rx-usecs 5100 with rx-frames 127 makes every ping of A take at
  least 5.1 ms, rx-frames 1 signals each frame at once) and the rx- and
  tx-copybreak tunables changed and read back (A's pings pass after
  each, values out of range refused), BQL limits in sysfs (ours-eth's
  ethtool_basics()); the frame engine's counters in ethtool -S: on the
  VoCore2 the SDM's and no pause or rmon statistics (the SDM counts
  neither: nothing made up), elsewhere GDMA1's with the pause and rmon
  groups (its flow control, short and long counters);
- MTU: eth0's max MTU is its max_frame less header and FCS
  (fe_core.c: the SDM's 1536-byte frames on the VoCore2, the GMAC's 1536
  on the RT3883 and RT2880, 2048 on the MT7620A: 2030), max+1 is
  refused, and a DF ping of A at the max passes (A answers in as long a
  frame). On the MT7620A the ping goes through swp0 at MTU 2030: DSA
  raises eth0's MTU to it (the port is in the descriptors, no tag on the
  wire) and ralink_mt7530 the GSW's frame limit (GMACCR: 1522 bytes out
  of reset, which drops such frames on the unmanaged switch);
- XDP_DROP: A's pings go unanswered, xdp_drop counts them, traffic back
  after detach;
- XDP_TX and XDP_REDIRECT (ndo_xdp_xmit to eth0 itself): A's echo
  requests come back to A with the MAC addresses swapped
  (tests/xdp/xdp_test.c's *_eth programs), counted by xdp_tx, or by
  xdp_redirect and xdp_xmit;
- TX timeout: clearing PDMA_GLO_CFG's TX_DMA_EN (devmem, at the map's
  offset: 0xa04, or 0x100 in the older map) stalls TX, the watchdog
  fires, the driver resets the DMA, pings pass again and TX DMA is on
  again;
- 100 rounds each (ours-eth's ROUNDS) of rmmod/modprobe of the drivers
  and sysfs unbind/bind of ralink_fe, and where there is a switch driver
  of the switch too (DSA's device link unbinds the switch with its
  conduit: bound again after; the last user port comes back each time;
  without a switch, eth0); then A pings swp0 (eth0 without a switch);
  kmemleak is empty; dmesg has no WARNING/BUG/Oops (dmesg_and_poweroff()).
The QEMU log holds nothing unexpected. Beside the live boots, in a
thread, one boot per broken DT (ours-eth's bad_dt(): fdtput on the
board's DTB with its own 32 MiB and busybox's initramfs, one CPU, QEMU
niced: nothing there is timed; the DTBs in build/tests/fe-eth/BOARD/),
for the frame engine (on the RT3883 and RT2880 its MAC's PHY and MDIO
bus too) and for the switch: probe fails with a dev_err naming the
property, no oops. Their lines follow the live boots' (tap.Deferred).
The last comments give each board's time and host CPU.

Every kernel the beds boot has BPF and kmemleak
(kernel/configs/eth-test.config).

`tests/suites/fe_eth.py [BOARD...]` runs the beds of those boards only.
"""

import os
import re
import subprocess
import sys
import threading
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import (BUILD, Board, dt_bootargs, dmesg_and_poweroff,  # noqa: E402
                   kernel_dir)
import dsa  # noqa: E402
from peer import Peer, eth, icmp_echo, ipv4  # noqa: E402
from tap import Deferred, Prefixed, Suite  # noqa: E402
from xdp import build_xdp  # noqa: E402
sys.path.insert(0, os.path.dirname(__file__))
from esw_net import BOOTLOADER  # noqa: E402
from ours_eth import (BadDtBed, Fail, bad_dt, build_bad_dtbs,  # noqa: E402
                      case_tx_timeout, case_xdp_drop, delta, ethtool_basics,
                      ethtool_field, loop, need, pause_rmon, ping, ping_ok,
                      stats)

IP_BOARD = '192.0.2.1'
MAC_A, IP_A = bytes.fromhex('02000000000a'), '192.0.2.10'
OUT = os.path.join(BUILD, 'tests', 'fe-eth')
FE_DRV = '/sys/bus/platform/drivers/ralink_fe'
# PDMA_GLO_CFG in the map of the RT5350, MT7628 and MT7620 (PDMA at 0x800)
# and in the older one (RT2880, RT305x, RT3883: PDMA at 0x100): fe_core.h's
# FE_PDMA_REGS_0800 and FE_PDMA_REGS_0100
PDMA_GLO_CFG_0800 = 0x0a04
PDMA_GLO_CFG_0100 = 0x0100
# The TX timeout's pings while TX is stalled: large enough that a few
# fill BQL's limit (grown by the MTU check's frames where no XDP program's
# DMA restart reset it) and stop the queue, which starts the watchdog
TX_TIMEOUT_PING = 1000
# What ethtool -S shows of the hardware: the SDM's counters (fe_sdm.c)...
SDM_STATS = ('tx_bytes', 'tx_packets', 'rx_bytes', 'rx_packets',
             'rx_checksum_errors')
# ...or GDMA1's (fe_gdma.c, the RT305x's layout)
GDMA_STATS = ('tx_bytes', 'tx_packets', 'tx_skip', 'tx_collisions',
              'rx_bytes', 'rx_packets', 'rx_overflow', 'rx_fcs_errors',
              'rx_short_errors', 'rx_long_errors', 'rx_checksum_errors',
              'rx_flow_control_packets')


class Switch:
    """A bed's switch under its DSA driver: the @module, its sysfs
    directory (@drv) and device there (@dev), its node in the DT (@node),
    the user port its driver makes last (@last, what the loops wait for;
    None: the DT's last labelled port, last_port()) and the one A is on
    (@port)."""

    def __init__(self, module, drv, dev, node, last=None, port='swp0'):
        self.module, self.drv, self.dev = module, drv, dev
        self.node, self.last, self.port = node, last, port
        self.name = os.path.basename(drv)


class Bed:
    """One board of the suite: QEMU's @board with kernel build @kernel,
    the DTB of the live boot (@dtb, with @mem; @mem_reg: the suite's copy
    gets this /memory reg), the NIC model A's port is (@nic), the frame
    engine's base (@fe_base) and PDMA_GLO_CFG (@glo_cfg), its max_frame
    (@max_frame: fe_*.c's, FCS included), what ethtool -S shows of the
    hardware (@counters: SDM_STATS or GDMA_STATS; GDMA1 has the pause and
    rmon groups), whether eth0's link is a PHY's (@phy), the registers
    its bootloader leaves set (@pokes), its @switch (None: eth0 is the
    port), whether the MTU's largest frame goes through a user port
    (@mtu_port) and the broken DTs (@bad: a BadDtBed)."""

    def __init__(self, board, kernel, dtb, nic, fe_base, glo_cfg, max_frame,
                 counters, bad, phy=False, switch=None, mem=None,
                 mem_reg=None, pokes=(), mtu_port=False):
        self.board, self.kernel, self.dtb, self.nic = board, kernel, dtb, nic
        self.fe_base, self.glo_cfg = fe_base, glo_cfg
        self.max_mtu = max_frame - 14 - 4
        self.counters, self.bad, self.phy = counters, bad, phy
        self.switch, self.mem, self.mem_reg = switch, mem, mem_reg
        self.pokes, self.mtu_port = pokes, mtu_port
        self.fe_dev = '%x.ethernet' % fe_base


# The broken DTs (as ours-eth's BAD_DT: fdtput edits, the property the
# dev_err must name, whose probe fails: 'fe' or 'switch'), from the frame
# engine's node @e and the switch's @s: each bed takes those its board
# has (bad_cases())
CASES = {
    'no interrupts': lambda e, s: ([['-d', e, 'interrupts']], 'interrupts',
                                   'fe'),
    'no reset-names': lambda e, s: ([['-d', e, 'reset-names']], 'reset',
                                    'fe'),
    'phy-mode "bogus"': lambda e, s: ([['-t', 's', e + '/mac@0', 'phy-mode',
                                        'bogus']], 'phy-mode', 'fe'),
    'mac@0 reg 7': lambda e, s: ([['-t', 'i', e + '/mac@0', 'reg', '7']],
                                 'reg', 'fe'),
    'fixed-link speed 0': lambda e, s: ([['-t', 'i', e + '/mac@0/fixed-link',
                                          'speed', '0']], 'speed', 'fe'),
    # The MAC's PHY: a phandle no node has; the MDIO bus's clock out of
    # range (fe_mdio.c)
    'phy-handle to nothing': lambda e, s: ([['-t', 'i', e + '/mac@0',
                                             'phy-handle', '4660']],
                                           'phy-handle', 'fe'),
    'mdio-bus clock-frequency 1': lambda e, s: ([['-t', 'i', e + '/mdio-bus',
                                                  'clock-frequency', '1']],
                                                'clock-frequency', 'fe'),
    'switch without ports': lambda e, s: ([['-r', s + '/ports']], 'ports',
                                          'switch'),
    'switch without reset-names': lambda e, s: ([['-d', s, 'reset-names']],
                                                'reset', 'switch'),
    'switch #interrupt-cells 2': lambda e, s: ([['-t', 'i', s,
                                                 '#interrupt-cells', '2']],
                                               '#interrupt-cells', 'switch'),
    'CPU port reg 5': lambda e, s: ([['-t', 'i', s + '/ports/port@6', 'reg',
                                      '5']], 'reg', 'switch'),
    'user port reg 5': lambda e, s: ([['-t', 'i', s + '/ports/port@4', 'reg',
                                       '5']], 'reg', 'switch'),
}


def bad_cases(names, eth, sw=None):
    """CASES' @names for the frame engine node @eth and switch node
    @sw."""
    return {n: CASES[n](eth, sw) for n in names}


# -- the VoCore2 --------------------------------------------------------------
ETH = '/ethernet@10100000'
SW = '/switch@10110000'
VOCORE2_DTB = 'mt7628-vocore2-esw.dtb'
ESW = Switch('ralink_esw', '/sys/bus/platform/drivers/ralink-esw',
             '10110000.switch', SW, 'swp3')
VOCORE2 = Bed('vocore2', 'mt76x8', VOCORE2_DTB, 'ralink-esw', 0x10100000,
              PDMA_GLO_CFG_0800, 1536, SDM_STATS,
              BadDtBed('vocore2: ', 'vocore2', 'mt76x8', VOCORE2_DTB,
                       ('ralink_fe', 'ralink_esw'),
                       r'ralink|10100000|10110000', FE_DRV, ESW.drv,
                       r'ethernet|switch', ['eth0'], list,
                       bad_cases(('no interrupts', 'no reset-names',
                                  'phy-mode "bogus"', 'mac@0 reg 7',
                                  'fixed-link speed 0',
                                  'switch without ports',
                                  'switch without reset-names',
                                  'CPU port reg 5', 'user port reg 5'),
                                 ETH, SW)),
              switch=ESW)

# -- the MT7620A evaluation board ------------------------------------------
# Broken DTs: the frame engine's reset (its SoC data's) and fixed link to
# the GSW; the GSW's node as the MMIO front end reads it (the generic ones
# of the frame engine are the VoCore2's)
GSW = Switch('ralink_mt7530', '/sys/bus/platform/drivers/ralink-mt7530-mmio',
             '10110000.switch', SW)
MT7620A = Bed('mt7620a-eval', 'mt76x8', 'mt7620a-eval-gsw-256m.dtb',
              'mt7530', 0x10100000, PDMA_GLO_CFG_0800, 2048, GDMA_STATS,
              BadDtBed('mt7620a-eval: ', 'mt7620a-eval', 'mt76x8',
                       'mt7620a-eval-gsw.dtb',
                       ('ralink_fe', 'ralink_mt7530'),
                       r'ralink|10100000|10110000', FE_DRV, GSW.drv,
                       r'ethernet|switch', ['eth0'], list,
                       bad_cases(('no reset-names', 'fixed-link speed 0',
                                  'switch without ports',
                                  'switch without reset-names',
                                  'switch #interrupt-cells 2'), ETH, SW)),
              switch=GSW, mem='256M', pokes=BOOTLOADER['mt7620a-eval'],
              mtu_port=True)


# -- the RT3883 and RT2880 evaluation boards --------------------------------
def gmac_bed(board, kernel, dtb, fe_base, ram):
    """The RT3883's or RT2880's bed: its DTB with 128 MiB at @ram. Broken
    DTs: the frame engine's reset, its MAC's phy-mode (RGMII), PHY and
    MDIO bus."""
    node = '/ethernet@%x' % fe_base
    return Bed(board, kernel, dtb, 'ralink-fe', fe_base, PDMA_GLO_CFG_0100,
               1536, GDMA_STATS,
               BadDtBed('%s: ' % board, board, kernel, dtb, ('ralink_fe',),
                        r'ralink|%x|mdio|PHY' % fe_base, FE_DRV, None,
                        r'ethernet', [], list,
                        bad_cases(('no reset-names', 'phy-mode "bogus"',
                                   'phy-handle to nothing',
                                   'mdio-bus clock-frequency 1'), node)),
               phy=True, mem='128M', mem_reg=(ram, 128 << 20))


RT3883 = gmac_bed('rt3883-eval', 'rt3883', 'rt3883_eval.dtb', 0x10100000, 0)
RT2880 = gmac_bed('rt2880-eval', 'rt2880', 'rt2880_eval.dtb', 0x00400000,
                  0x08000000)
BEDS = (VOCORE2, MT7620A, RT3883, RT2880)


def last_port(dtb, sw):
    """The label of the last port with one under @sw's ports in @dtb (a
    path): the user port DSA makes last."""
    def fdtget(*args):
        return subprocess.run(['fdtget'] + list(args), check=True, text=True,
                              capture_output=True).stdout.split()
    ports = fdtget('-l', dtb, sw.node + '/ports')
    labels = {}
    for p in ports:
        if 'label' in fdtget('-p', dtb, '%s/ports/%s' % (sw.node, p)):
            reg = int(fdtget(dtb, '%s/ports/%s' % (sw.node, p), 'reg')[0])
            labels[reg] = fdtget('-ts', dtb, '%s/ports/%s' % (sw.node, p),
                                 'label')[0]
    return labels[max(labels)]


def live_dtb(bed):
    """The DTB of @bed's live boot: its own, or a copy in OUT with the
    /memory reg of @bed.mem_reg."""
    if not bed.mem_reg:
        return bed.dtb
    dtb = os.path.join(OUT, bed.dtb.replace('.dtb', '-128m.dtb'))
    with open(os.path.join(kernel_dir(bed.kernel), 'dtbs', bed.dtb),
              'rb') as src, open(dtb, 'wb') as dst:
        dst.write(src.read())
    subprocess.run(['fdtput', '-t', 'i', dtb, '/memory@0', 'reg'] +
                   ['%#x' % v for v in bed.mem_reg], check=True)
    return dtb


def case_ethtool(b, bed):
    seen = ethtool_basics(b, IP_A, crossings=1)
    if bed.phy:
        out = b.check('ethtool eth0')
        need(ethtool_field(out, 'Auto-negotiation') == 'on' and
             ethtool_field(out, 'Transceiver') == 'external' and
             ethtool_field(out, 'PHYAD') == '0', out)
    s = stats(b)
    what = 'SDM' if bed.counters is SDM_STATS else 'GDMA1'
    need(all(k in s for k in bed.counters) and s['rx_packets'] > 0 and
         s['tx_packets'] > 0, '%s counters in ethtool -S: %s' % (what, s))
    if bed.counters is GDMA_STATS:
        pause_rmon(b)
        return seen + '; GDMA1 rx_packets %d tx_packets %d' % (
            s['rx_packets'], s['tx_packets'])
    need('rx_overflow' not in s and 'rx_fcs_errors' not in s,
         'counters the SDM does not have in ethtool -S: %s' % s)
    pause = b.check('ethtool -I -a eth0')
    need('rx_pause_frames' not in pause, pause)
    std = b.check('ethtool -S eth0 --groups rmon')
    need('etherStatsUndersizePkts' not in std, std)
    return seen + '; SDM rx_packets %d tx_packets %d' % (
        s['rx_packets'], s['tx_packets'])


def max_mtu(b, dev):
    out = b.check('ip -d link show %s' % dev)
    m = re.search(r'maxmtu (\d+)', out)
    return int(m.group(1)) if m else out


def case_mtu(b, bed):
    """eth0's max MTU, max+1 refused, a DF ping of A at the max (through
    the switch's user port if @bed.mtu_port)."""
    mtu = bed.max_mtu
    got = max_mtu(b, 'eth0')
    need(got == mtu, 'eth0 maxmtu: want %d\n%s' % (mtu, got))
    st, out = b.run('ip link set eth0 mtu %d 2>&1' % (mtu + 1))
    need(st != 0, 'MTU %d accepted' % (mtu + 1))
    dev = bed.switch.port if bed.mtu_port else 'eth0'
    if dev != 'eth0':
        got = max_mtu(b, dev)
        need(got == mtu, '%s maxmtu: want %d\n%s' % (dev, mtu, got))
    size = mtu - 20 - 8
    try:
        b.check('ip link set %s mtu %d' % (dev, mtu))
        conduit = b.check('cat /sys/class/net/eth0/mtu').strip()
        need(conduit == str(mtu), 'eth0 MTU %s with %s at %d'
             % (conduit, dev, mtu))
        got, out = ping(b, 3, size=size, dst=IP_A)
        need(got == 3, 'DF ping of %d bytes (%d-byte frames): %d/3 replies'
             '\n%s' % (size, mtu + 14, got, out))
    finally:
        b.check('ip link set %s mtu 1500' % dev)
    return 'max MTU %d; DF ping of A with %d bytes%s' % (
        mtu, size, ' through %s' % dev if dev != 'eth0' else '')


def case_reflect(b, a, board_mac, sec, counters):
    """XDP program @sec reflects A's echo requests back to A."""
    def reflected(f):
        return (f[0:6] == a.mac and f[6:12] == board_mac and
                f[12:14] == b'\x08\x00' and f[23] == 1 and f[34] == 8)
    s0 = stats(b)
    b.check('ip link set dev eth0 xdpdrv obj /tmp/xdp.o sec %s' % sec)
    try:
        since = a.mark()
        # No reply may come: the board's answer is waited for 2 s (the
        # reflected request comes within milliseconds)
        got = a.ping(IP_BOARD, 7, wait=2)
        back = a.wait(reflected, 5, since)
        for seq in range(5):
            a.send(eth(board_mac, a.mac, 0x0800,
                       ipv4(IP_A, IP_BOARD, 1, icmp_echo(8, 0x4242,
                                                         100 + seq))))
        deadline = time.monotonic() + 5
        while True:
            with a.cond:
                n = sum(1 for f in a.frames[since:] if reflected(f))
            if n >= 6 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
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


def port_up(b, dev):
    """eth0 and @dev (eth0, or the user port A is on) up, @dev with the
    board's address and carrier; the shell's status and output."""
    st, out = b.run('ip link set eth0 up && ip link set %s up && '
                    'ip addr add %s/24 dev %s && for i in $(seq 100); do '
                    'grep -q 1 /sys/class/net/%s/carrier && break; '
                    'sleep 0.1; done; grep -q 1 /sys/class/net/%s/carrier'
                    % (dev, IP_BOARD, dev, dev, dev))
    return st, out


def live(suite, bed, xdp):
    """Every check of @bed's one live boot; return its host CPU seconds
    (QEMU's)."""
    t = Prefixed(suite, bed.board)
    a = Peer('A', MAC_A, IP_A)
    dtb = live_dtb(bed)
    sw = bed.switch
    if sw:
        last = sw.last or last_port(os.path.join(kernel_dir(bed.kernel),
                                                 'dtbs', dtb), sw)
    with Board(bed.board, dtb=dtb, mem=bed.mem, rootfs='rootfs-net',
               extra=a.netdev('pa', model=bed.nic),
               append=dt_bootargs(dtb, bed.kernel) + ' kmemleak=on') as b:
        b.wait_ready()
        b.check('dmesg -n 1')
        # busybox's sh runs its own applets first: iproute2's ip (XDP,
        # ip -d) and iputils' ping (-M do) by their paths
        b.check('ip() { /usr/bin/ip "$@"; }; ping() { /usr/bin/ping "$@"; }')
        for reg, val in bed.pokes:
            b.check('devmem %#x 32 %#x' % (reg, val))
        st, out = b.run('modprobe ralink_fe && basename $(readlink '
                        '/sys/class/net/eth0/device/driver)')
        t.result(st == 0 and out.split()[-1:] == ['ralink_fe'],
                 'ralink_fe binds the frame engine', out)
        if st:
            return sum(b.cpu_times().values())
        dsa.kmemleak_start(b)
        with open(xdp, 'rb') as f:
            b.put('/tmp/xdp.o', f.read())
        try:
            st, out = port_up(b, 'eth0')
            need(st == 0, 'no carrier on eth0: %s' % out)
            ping_ok(b, 'set-up', wait=30, dst=IP_A)
        except Fail as e:
            t.fail('set-up: eth0 up, the board pings A', str(e))
            return sum(b.cpu_times().values())
        board_mac = bytes.fromhex(b.check(
            'cat /sys/class/net/eth0/address').strip().replace(':', ''))

        if bed.counters is SDM_STATS:
            name = ('ethtool: drvinfo, link, ring sizes, coalescing, '
                    'copybreaks, BQL, the SDM counters and no pause or rmon '
                    'statistics')
        else:
            name = ('ethtool: drvinfo, link%s, ring sizes, coalescing, '
                    'copybreaks, BQL, GDMA1\'s counters, pause and rmon '
                    'statistics' % (' from the PHY' if bed.phy else ''))
        t.check(name, lambda: case_ethtool(b, bed))
        mtu = ('MTU: max %d accepted, %d refused, DF ping at the max passes'
               % (bed.max_mtu, bed.max_mtu + 1))
        if not bed.mtu_port:
            t.check(mtu, lambda: case_mtu(b, bed))
        xdp_cases = [
            ('XDP_DROP: frames dropped and counted, traffic back after '
             'detach', lambda: case_xdp_drop(b, IP_A)),
            ('XDP_TX: A gets its echo requests back',
             lambda: case_reflect(b, a, board_mac, 'xdp_tx_eth',
                                  ['xdp_tx'])),
            ('XDP_REDIRECT to eth0 (ndo_xdp_xmit): A gets its echo requests '
             'back', lambda: case_reflect(b, a, board_mac, 'xdp_redirect_eth',
                                          ['xdp_redirect', 'xdp_xmit']))]
        for name, fn in xdp_cases:
            t.check(name, fn)
        t.check('TX timeout: TX DMA stalled, watchdog fires, DMA reset, '
                'traffic recovers',
                lambda: case_tx_timeout(b, bed.fe_base + bed.glo_cfg, IP_A,
                                        TX_TIMEOUT_PING))

        b.check('ip addr flush dev eth0')
        if sw:
            b.check('modprobe %s && for i in $(seq 50); do [ -e '
                    '/sys/class/net/%s ] && break; sleep 0.1; done; [ -e '
                    '/sys/class/net/%s ]' % (sw.module, last, last))
        if bed.mtu_port:
            port_up(b, sw.port)
            t.check(mtu, lambda: case_mtu(b, bed))
            b.check('ip addr flush dev %s' % sw.port)
        loops(t, b, bed, last if sw else 'eth0')
        st, out = port_up(b, sw.port if sw else 'eth0')
        rtt = a.ping(IP_BOARD, 300) if st == 0 else out
        if sw:
            what = '%s (%s over ralink_fe)' % (sw.port, sw.module)
        else:
            what = 'eth0'
        t.result(isinstance(rtt, float), 'after the loops A pings %s'
                 % what, str(rtt))
        leaks = dsa.kmemleak_leaks(b)
        t.result(not leaks, 'kmemleak empty after the tests and loops',
                 leaks[:3000])
        spent = sum(b.cpu_times().values())
        dmesg_and_poweroff(t, b, '')
    t.qemu_log(b, bed.board)
    return spent


def loops(t, b, bed, last):
    """ROUNDS of each, waiting for the netdev @last each time:
    rmmod/modprobe of the drivers, sysfs unbind/bind of ralink_fe (DSA's
    device link, the switch a consumer of its conduit's device, unbinds
    the switch with the frame engine, and nothing binds it again: the ESW
    and the GSW are no children of the frame engine, as the MT7530 is on
    the MT7621) and of the switch."""
    sw = bed.switch
    fe = ('echo {dev} > {drv}/unbind && echo {dev} > {drv}/bind'
          .format(dev=bed.fe_dev, drv=FE_DRV))
    if not sw:
        loop(t, b, 'rmmod/modprobe ralink_fe',
             'rmmod ralink_fe && modprobe ralink_fe', dev=last)
        loop(t, b, 'sysfs unbind/bind ralink_fe', fe, dev=last)
        return
    loop(t, b, 'rmmod/modprobe %s and ralink_fe' % sw.module,
         'rmmod {sw} && rmmod ralink_fe && modprobe ralink_fe && '
         'modprobe {sw}'.format(sw=sw.module), dev=last)
    bind = 'echo {dev} > {drv}/bind'.format(dev=sw.dev, drv=sw.drv)
    loop(t, b, 'sysfs unbind/bind ralink_fe (and bind the switch again)',
         fe + ' && ' + bind, dev=last)
    loop(t, b, 'sysfs unbind/bind the switch (%s)' % sw.name,
         'echo {dev} > {drv}/unbind && {bind}'.format(
             dev=sw.dev, drv=sw.drv, bind=bind), dev=last)


def cpu_secs():
    """Host CPU seconds of this process and its waited-for children (the
    boards' QEMUs)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def broken_dts(beds, found):
    """Each of @beds' broken DTs, one boot after another, niced (nothing
    in them is timed): beside the live boots. Their lines go to @found, a
    Deferred per board, with (boots, wall and QEMU's host CPU seconds) as
    its .spent."""
    for bed in beds:
        rec = found[bed.board]
        out = os.path.join(OUT, bed.board)
        os.makedirs(out, exist_ok=True)
        t0, cpu = time.monotonic(), 0
        dtbs = build_bad_dtbs(bed.bad, out)
        for name, dtb in dtbs.items():
            try:
                b = bad_dt(rec, bed.bad, name, dtb, niced=True)
                cpu += sum((b.final_cpu or {}).values())
            except Exception:
                rec.fail('%sbad DT (%s): the boot ran to its end'
                         % (bed.bad.name, name), traceback.format_exc())
        rec.spent = (len(dtbs), time.monotonic() - t0, cpu)


def main(boards):
    """The live boots one after another; beside them, in a thread, the
    boots of the broken DTs, whose lines follow the live boots'."""
    suite = Suite('fe-eth')
    t0, c0 = time.monotonic(), cpu_secs()
    os.makedirs(OUT, exist_ok=True)
    xdp = build_xdp()
    beds = [bed for bed in BEDS if not boards or bed.board in boards]
    found = {bed.board: Deferred() for bed in beds}
    bad = threading.Thread(target=broken_dts, args=(beds, found))
    bad.start()
    spent = {}
    for bed in beds:
        t1 = time.monotonic()
        try:
            cpu = live(suite, bed, xdp)
        except Exception:
            # The other boards still run
            suite.fail('%s: the live boot ran to its end' % bed.board,
                       traceback.format_exc())
            cpu = 0
        spent[bed.board] = (time.monotonic() - t1, cpu)
    bad.join()
    for bed in beds:
        found[bed.board].replay(suite)
    for bed in beds:
        n, wall, cpu = getattr(found[bed.board], 'spent', (0, 0, 0))
        suite.comment('%s: the live boot %.0f s, host CPU %.0f s; %d '
                      'broken DTs %.0f s, host CPU %.0f s (QEMU\'s)'
                      % ((bed.board,) + spent[bed.board] + (n, wall, cpu)))
    suite.comment('fe-eth: %.0f s, host CPU %.0f s' % (
        time.monotonic() - t0, cpu_secs() - c0))
    # It ran to completion (tests/run-all.py's own check), as esw-eth said
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
