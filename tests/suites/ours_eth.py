#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ours-eth: our frame-engine driver (ralink_fe) on the emulated MT7621.

Driver set `ours` (ralink_fe as the DSA conduit, ralink_mt7530 as the
switch). One board with the DSA test DT, `kmemleak=on` and two CPUs up;
QEMU loops switch port 0 to port 1, and port 2 is a host-side peer
(tests/lib/peer.py):
swp0 (192.0.2.1) in the main namespace, swp1 (192.0.2.2) in namespace ns1,
so every frame between them crosses eth0 twice (TX and RX). Cases:
- ethtool on eth0: driver name, 1000/full link, ring sizes, interrupt
  coalescing and the rx- and tx-copybreak tunables changed and read back
  (traffic passes after each, values out of range refused), pause settings with
  their statistics, the standard rmon group, BQL limits in sysfs;
- interrupt coalescing: adaptive (DIM) by default; with it off, the
  frame engine's delay timer holds each received frame: rx-usecs 5100
  with rx-frames 127 makes every ping take at least 10.2 ms (it crosses
  eth0's RX twice), rx-frames 1 signals each frame at once again;
- MTU: eth0's max MTU is the MAC's (2048-byte frames), max+1 is refused,
  and a DF ping of the largest size the DSA ports allow passes;
- checksum offload: a TCP transfer arrives intact with TSO on and off, no
  RX checksum errors counted; UDP datagrams with a bad checksum are
  counted as such by the stack (the RX verdict did not vouch for them);
- XDP_DROP: pings fail, xdp_drop counts them, traffic back after detach;
- XDP_TX: frames from port 0 come back out of port 0 (MACs swapped) and
  reach ns1 (tcpdump there), xdp_tx counts them;
- XDP_REDIRECT: the same reflection through bpf_redirect() to eth0 itself
  (ndo_xdp_xmit), counted by xdp_redirect and xdp_xmit;
- the second CPU port: swp0 moves to eth1 (GMAC1, switch port 5) with
  `ip link set swp0 type dsa master eth1`, pings to ns1 (still behind
  eth0) pass and eth1 counts them, and back to eth0;
- bad frames from the host peer on port 2 (a runt shorter than an Ethernet
  header, a frame longer than the switch's maximum, an 802.1Q frame of a
  VLAN port 2 is not a member of under a VLAN-filtering bridge): each is
  dropped (tcpdump on swp2 sees only the good frames sent around them) and
  counted in swp2's MIB (ethtool -S) and in its get_stats64 errors;
- TX timeout: clearing QDMA_GLO_CFG (devmem) stalls TX, the watchdog fires,
  the driver resets the DMA and pings pass again;
- no unicast filter claimed: a second unicast address on eth1 (no user
  port on it, so no other address on its list) raises its promiscuity by
  one and removing it lowers it again (ralink_fe has no filter and must
  not set IFF_UNICAST_FLT: with the flag the count stays);
- rmmod/modprobe of both drivers, sysfs unbind/bind of ralink_fe and of
  the switch (ralink-mt7530 on the MDIO bus): 100 rounds each (a comment
  says how long a round took): the switch's ports come back each time;
  then kmemleak is empty and dmesg has no WARNING/BUG/Oops.
Then one boot per broken DT (fdtput on the built test DTB, written to
build/tests/ours-eth/), for the frame engine and for the switch: probe
fails with a dev_err naming the property, no oops. The XDP programs are
tests/xdp/xdp_test.c (tests/lib/xdp.py builds them with clang).
"""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import BUILD, Board, dt_bootargs, kernel_dir  # noqa: E402
import dsa  # noqa: E402
from peer import BCAST, Peer, eth  # noqa: E402
from tap import Suite  # noqa: E402
from xdp import build_xdp  # noqa: E402

SET = 'ours'
OUT = os.path.join(BUILD, 'tests', 'ours-eth')

IP0, IP1 = '192.0.2.1', '192.0.2.2'
MAC0, MAC1 = '02:00:00:00:00:10', '02:00:00:00:00:11'
PEER_MAC = bytes.fromhex('020000000c0c')
NS = 'ip netns exec ns1 '

# MT7621: the frame engine's registers (the DT's "reg") and QDMA_GLO_CFG,
# whose bit 0 (TX_DMA_EN) the test clears to stall TX DMA.
FE_BASE = 0x1e100000
QDMA_GLO_CFG = 0x1a04
GLO_TX_DMA_EN = 0x1
# The MAC's largest frame (fe_mt7621.c max_frame) less header and FCS.
MAX_MTU = 2048 - 14 - 4
MTK_TAG_LEN = 4

# Each loop runs ROUNDS rounds (the number); LOOP_SECS guest
# seconds end a loop that hangs. One round took 0.6-0.8 s (switch
# unbind/bind), 1.1 s (frame engine unbind/bind) and 1.1-1.4 s
# (rmmod/modprobe of both) under TCG here: about 5 minutes for the three.
ROUNDS = 100
LOOP_SECS = 300

OOPS = dsa.OOPS

ETH = '/ethernet@1e100000'
SW = ETH + '/mdio-bus/switch@1f'
# name: (fdtput edits, the property the dev_err must name, whose probe
# fails: 'fe' or 'switch')
BAD_DT = {
    'no mediatek,ethsys': ([['-d', ETH, 'mediatek,ethsys']],
                           'mediatek,ethsys', 'fe'),
    'no reset-names': ([['-d', ETH, 'reset-names']], 'reset', 'fe'),
    'no clock-names': ([['-d', ETH, 'clock-names']], 'clock', 'fe'),
    'no interrupts': ([['-d', ETH, 'interrupts']], 'interrupts', 'fe'),
    'phy-mode "bogus"': ([['-t', 's', ETH + '/mac@0', 'phy-mode', 'bogus']],
                         'phy-mode', 'fe'),
    'mac@1 without reg': ([['-d', ETH + '/mac@1', 'reg']], 'reg', 'fe'),
    'mac@1 reg 7': ([['-t', 'i', ETH + '/mac@1', 'reg', '7']], 'reg', 'fe'),
    'fixed-link speed 0': ([['-t', 'i', ETH + '/mac@0/fixed-link', 'speed',
                             '0']], 'speed', 'fe'),
    'switch without ports': ([['-r', SW + '/ports']], 'ports', 'switch'),
    'switch without mediatek,mcm': ([['-d', SW, 'mediatek,mcm']],
                                    'mediatek,mcm', 'switch'),
    'switch without reset-names': ([['-d', SW, 'reset-names']],
                                   'resets/reset-names', 'switch'),
    'switch #interrupt-cells 2': ([['-t', 'i', SW, '#interrupt-cells', '2']],
                                  '#interrupt-cells', 'switch'),
}


class BadDtBed:
    """Where bad_dt() boots a broken DT and what it looks at: @name, the
    prefix of its lines, @board, its test DTB (@dtb of kernel @kernel's
    dtbs), the @modules to load (the frame engine's driver, then the
    switch's if there is one), what of dmesg to show (@log), the drivers'
    sysfs directories (@fe_drv, @sw_drv: None without a switch) and their
    devices' names there (@bound), the frame engine's netdevs (@netdevs),
    QEMU's @extra options and the @cases (as BAD_DT)."""

    def __init__(self, name, board, kernel, dtb, modules, log, fe_drv,
                 sw_drv, bound, netdevs, extra, cases):
        self.name, self.board, self.kernel, self.dtb = name, board, kernel, dtb
        self.modules, self.log, self.bound = modules, log, bound
        self.fe_drv, self.sw_drv, self.netdevs = fe_drv, sw_drv, netdevs
        self.extra, self.cases = extra, cases


class Fail(Exception):
    pass


def need(cond, diag):
    if not cond:
        raise Fail(diag)


def build_bad_dtbs(bed, out):
    """One DTB per case of @bed: its test DTB with fdtput's edits, in
    @out."""
    base = os.path.join(kernel_dir(bed.kernel), 'dtbs', bed.dtb)
    dtbs = {}
    for name, (edits, _, _) in bed.cases.items():
        dtb = os.path.join(out, 'bad-%s.dtb' % re.sub(r'[^a-z0-9]+', '-',
                                                      name).strip('-'))
        with open(base, 'rb') as src, open(dtb, 'wb') as dst:
            dst.write(src.read())
        for e in edits:
            opt = e[:1] if e[0] in ('-d', '-r') else e[:2]
            subprocess.run(['fdtput'] + opt + [dtb] + e[len(opt):],
                           check=True)
        dtbs[name] = dtb
    return dtbs


def stats(b, dev='eth0'):
    out = b.check('ethtool -S %s' % dev)
    return {k: int(v) for k, v in re.findall(r'^\s*(\S+): (\d+)$', out, re.M)}


def delta(new, old, key):
    return new.get(key, 0) - old.get(key, 0)


def ping(b, count=3, size=None, ns=False, extra='', dst=None):
    """Ping the other side; return (received, output)."""
    cmd = '%sping -c %d -i 0.3 -W 1 %s%s %s' % (
        NS if ns else '', count, '-s %d -M do ' % size if size else '',
        extra, dst or (IP0 if ns else IP1))
    _, out = b.run(cmd, timeout=60)
    m = re.search(r'(\d+) (?:packets )?received', out)
    return (int(m.group(1)) if m else 0), out


def ping_ok(b, what, count=3, wait=15, dst=None):
    """@count replies within @wait s (the link may still be settling)."""
    cmd = 'ping -c %d -i 0.3 -w %d %s' % (count, wait, dst or IP1)
    st, out = b.run(cmd, timeout=wait + 30)
    need(st == 0, '%s: no %d ping replies within %d s:\n%s'
         % (what, count, wait, out))


def copybreak(b, name, default, most, dst=None):
    """ethtool tunable @name: @default at first; 0 taken, read back and
    traffic (pings of @dst) passes; @most + 1 refused; @default again at
    the end."""
    cb = b.check('ethtool --get-tunable eth0 %s' % name)
    need(ethtool_field(cb, name) == str(default), cb)
    try:
        b.check('ethtool --set-tunable eth0 %s 0' % name)
        cb = b.check('ethtool --get-tunable eth0 %s' % name)
        need(ethtool_field(cb, name) == '0', cb)
        ping_ok(b, 'with %s 0' % name, dst=dst)
        st, out = b.run('ethtool --set-tunable eth0 %s %d 2>&1'
                        % (name, most + 1))
        need(st != 0, '%s %d accepted: %s' % (name, most + 1, out))
    finally:
        b.check('ethtool --set-tunable eth0 %s %d' % (name, default))


def setup_ports(b):
    b.check('ip link set swp0 address %s && ip link set swp1 address %s && '
            'ip netns add ns1 && ip link set swp1 netns ns1 && '
            'ip addr add %s/24 dev swp0 && ip link set swp0 up && '
            'ip -n ns1 addr add %s/24 dev swp1 && ip -n ns1 link set swp1 up'
            % (MAC0, MAC1, IP0, IP1))
    ping_ok(b, 'set-up', wait=30)


# -- cases on the running board ------------------------------------------
def case_mtu(b):
    orig = b.check('cat /sys/class/net/eth0/mtu').strip()
    out = b.check('ip -d link show eth0')
    m = re.search(r'maxmtu (\d+)', out)
    need(m and int(m.group(1)) == MAX_MTU, 'eth0 maxmtu: want %d\n%s'
         % (MAX_MTU, out))
    st, out = b.run('ip link set eth0 mtu %d' % MAX_MTU)
    need(st == 0, 'MTU %d refused: %s' % (MAX_MTU, out))
    mtu = b.check('cat /sys/class/net/eth0/mtu').strip()
    need(mtu == str(MAX_MTU), 'eth0 MTU reads %s' % mtu)
    st, out = b.run('ip link set eth0 mtu %d 2>&1' % (MAX_MTU + 1))
    need(st != 0, 'MTU %d accepted' % (MAX_MTU + 1))
    mtu = b.check('cat /sys/class/net/eth0/mtu').strip()
    need(mtu == str(MAX_MTU), 'eth0 MTU %s after the refused change' % mtu)
    # The DSA ports: the conduit's maximum less the MTK tag. The conduit
    # goes back to its MTU first: DSA tells the switch's CPU port about a
    # new MTU only when it changes the conduit's.
    b.check('ip link set eth0 mtu %s' % orig)
    umtu = MAX_MTU - MTK_TAG_LEN
    size = umtu - 20 - 8
    try:
        b.check('ip link set swp0 mtu %d && ip -n ns1 link set swp1 mtu %d'
                % (umtu, umtu))
        got, out = ping(b, 3, size=size)
        need(got == 3, 'DF ping of %d bytes (%d-byte frames): %d/3 '
             'replies\n%s' % (size, umtu + 14, got, out))
        got, out = ping(b, 1, size=size + 1)
        need(got == 0, 'a DF ping of %d bytes (above MTU %d) got through\n%s'
             % (size + 1, umtu, out))
    finally:
        b.check('ip link set swp0 mtu 1500 && '
                'ip -n ns1 link set swp1 mtu 1500 && '
                'ip link set eth0 mtu %s' % orig)
    return 'max MTU %d; DF ping of %d bytes through swp0 (MTU %d)' % (
        MAX_MTU, size, umtu)


def ethtool_field(out, name):
    """The first "name: value" of ethtool's output."""
    m = re.search(r'^\s*%s:\s*(\S+)' % re.escape(name), out, re.M)
    need(m, 'no "%s" in:\n%s' % (name, out))
    return m.group(1)


def coalesced_rtt(b, usecs, frames, dst):
    """The least RTT (ms) of 5 pings of @dst with RX coalescing
    @usecs/@frames."""
    b.check('ethtool -C eth0 rx-usecs %d rx-frames %d' % (usecs, frames))
    st, out = b.run('ping -c 5 -i 0.2 -w 15 %s' % dst, timeout=45)
    m = re.search(r'= ([\d.]+)/[\d.]+/[\d.]+', out)
    need(st == 0 and m, 'ping with %d us / %d frames:\n%s'
         % (usecs, frames, out))
    return float(m.group(1))


def ethtool_basics(b, dst=None, crossings=2):
    """Driver, link, ring sizes, coalescing and the copybreaks of eth0,
    with pings of @dst after each change (each ping crossing eth0's RX
    @crossings times); what was seen."""
    dst = dst or IP1
    held = 5.1 * crossings   # ms: rx-usecs 5100 per crossing
    out = b.check('ethtool -i eth0')
    need(ethtool_field(out, 'driver') == 'ralink_fe', out)
    out = b.check('ethtool eth0')
    need(ethtool_field(out, 'Speed') == '1000Mb/s' and
         ethtool_field(out, 'Duplex') == 'Full', out)
    ring = b.check('ethtool -g eth0')
    cur = ring.split('Current hardware settings:')[1]
    rx, tx = ethtool_field(cur, 'RX'), ethtool_field(cur, 'TX')
    try:
        b.check('ethtool -G eth0 rx 128 tx 256')
        cur = b.check('ethtool -g eth0').split('Current hardware')[1]
        need(ethtool_field(cur, 'RX') == '128' and
             ethtool_field(cur, 'TX') == '256', cur)
        st, out = b.run('ethtool -G eth0 rx 16 2>&1')
        need(st != 0, 'a 16-entry RX ring accepted: %s' % out)
        ping_ok(b, 'with 128/256-entry rings', dst=dst)
    finally:
        b.check('ethtool -G eth0 rx %s tx %s' % (rx, tx))
    coal = b.check('ethtool -c eth0')
    need(re.search(r'^Adaptive RX: on\s+TX: on', coal, re.M), coal)
    usecs = ethtool_field(coal, 'rx-usecs')
    frames = ethtool_field(coal, 'rx-frames')
    try:
        b.check('ethtool -C eth0 adaptive-rx off rx-usecs 100 rx-frames 8')
        coal = b.check('ethtool -c eth0')
        need(re.search(r'^Adaptive RX: off\s+TX: on', coal, re.M) and
             ethtool_field(coal, 'rx-usecs') == '100' and
             ethtool_field(coal, 'rx-frames') == '8', coal)
        ping_ok(b, 'with RX coalescing 100 us / 8 frames', dst=dst)
        st, out = b.run('ethtool -C eth0 rx-usecs 6000 2>&1')
        need(st != 0, 'rx-usecs 6000 accepted: %s' % out)
        st, out = b.run('ethtool -C eth0 rx-usecs 0 rx-frames 8 2>&1')
        need(st != 0, 'rx-frames 8 without rx-usecs accepted: %s' % out)
        slow = coalesced_rtt(b, 5100, 127, dst)
        fast = coalesced_rtt(b, 5100, 1, dst)
        need(slow >= held and fast < held,
             'ping min RTT %.2f ms with 5100 us / 127 frames, %.2f ms '
             'with 5100 us / 1 frame: expected >= %.1f and < %.1f'
             % (slow, fast, held, held))
    finally:
        b.check('ethtool -C eth0 adaptive-rx on')
    coal = b.check('ethtool -c eth0')
    need(re.search(r'^Adaptive RX: on\s+TX: on', coal, re.M), coal)
    # RX copybreak (256 by default): 0 sends every frame through
    # page_pool, as larger ones go; above 1024 is refused.
    copybreak(b, 'rx-copybreak', 256, 1024, dst)
    # TX copybreak (128 by default: copied into the TX copy area): 0 maps
    # every frame; above the copy area's 128-byte slots is refused
    copybreak(b, 'tx-copybreak', 128, 128, dst)
    ping_ok(b, 'with tx-copybreak 128', dst=dst)
    # BQL: the limit starts at 0 and grows once completions are reported;
    # per TX queue (a DSA port's frames go to queue port + 3): the largest
    bql = b.check('cat /sys/class/net/eth0/queues/tx-*/byte_queue_limits/'
                  'limit | sort -n | tail -n 1')
    need(int(bql) > 0, 'BQL limit %s after traffic' % bql)
    return ('rings %s/%s, adaptive rx-usecs %s, rx-frames %s, ping %.1f ms '
            'held by the delay timer, %.1f ms not, BQL limit %s'
            % (rx, tx, usecs, frames, slow, fast, bql.strip()))


def pause_rmon(b):
    """eth0's pause settings with the standard pause statistics (-I) and
    its standard rmon group: the GDMA's counters."""
    pause = b.check('ethtool -I -a eth0')
    need(ethtool_field(pause, 'RX') in ('on', 'off') and
         re.search(r'rx_pause_frames: \d+', pause), pause)
    std = b.check('ethtool -S eth0 --groups rmon')
    need(re.search(r'^rmon-etherStatsUndersizePkts: \d+', std, re.M), std)


def case_ethtool(b):
    seen = ethtool_basics(b)
    pause_rmon(b)
    return seen


def tcp_transfer(b, tso, port):
    b.check('ethtool -K eth0 tso %s' % tso)
    feat = b.check('ethtool -k eth0 | grep tcp-segmentation-offload:')
    need(feat.split(':')[1].strip().startswith(tso),
         'eth0 TSO is not %s: %s' % (tso, feat))
    s0 = stats(b)
    b.check(NS + 'sh -c "ncat -l %d > /tmp/rx%d.bin 2>/dev/null &"; '
            'sleep 1' % (port, port))
    t = time.monotonic()
    st, out = b.run('timeout 120 ncat --send-only %s %d < /tmp/tx.bin; '
                    'sleep 1; md5sum /tmp/tx.bin /tmp/rx%d.bin'
                    % (IP1, port, port), timeout=180)
    secs = time.monotonic() - t
    sums = re.findall(r'^([0-9a-f]{32}) ', out, re.M)
    need(st == 0 and len(sums) == 2 and sums[0] == sums[1],
         'TSO %s: the received file differs or is missing:\n%s' % (tso, out))
    s1 = stats(b)
    errs = delta(s1, s0, 'rx_checksum_errors')
    need(errs == 0, 'TSO %s: rx_checksum_errors +%d' % (tso, errs))
    b.check('rm -f /tmp/rx%d.bin' % port)
    return 'TSO %s: 1 MiB in %.1f s, md5 %s, tx_packets +%d' % (
        tso, secs, sums[0], delta(s1, s0, 'tx_packets'))


def udp_csum_errors(b):
    out = b.check('grep "^Udp:" /proc/net/snmp')
    names, values = out.strip().split('\n')[:2]
    return dict(zip(names.split()[1:], map(int, values.split()[1:])))


def send_udp(b, n, dport, csum=''):
    # mausezahn 0.40 reads udp_sum as a decimal number (0x1234 becomes 0,
    # "no checksum"); without it, it computes the right one.
    b.check(NS + 'mausezahn swp1 -q -c %d -a %s -b %s -A %s -B %s -t udp '
            '"sp=4000,dp=%d%s" -p 40' % (n, MAC1, MAC0, IP1, IP0, dport,
                                         csum))
    b.check('sleep 1')


def case_rx_csum(b):
    """The RX checksum verdict: good UDP marked CHECKSUM_UNNECESSARY, bad
    UDP counted by the GDMA and by the stack, not marked.

    A tc program on swp0 (xdp_test.c, tc_csum) drops datagrams to port
    4001 that are not marked (bpf_csum_level() fails on them): good ones
    reach the stack (NoPorts) only if marked. With eth0's rx-checksumming
    off the same ones are not marked and none reach it, which shows the
    program tells the two apart. GRO is off meanwhile, on eth0 and on
    swp0 (DSA hands frames to its user ports through GRO cells): it checks
    UDP checksums in software and marks what it checked.
    """
    n = 5
    b.check('ethtool -K eth0 gro off && ethtool -K swp0 gro off && '
            'tc qdisc add dev swp0 clsact && '
            'tc filter add dev swp0 ingress bpf da obj /tmp/xdp.o sec tc_csum')
    try:
        seen = {}
        for rx in ('on', 'off'):
            b.check('ethtool -K eth0 rx %s' % rx)
            u0 = udp_csum_errors(b)
            send_udp(b, n, 4001)
            seen[rx] = udp_csum_errors(b)['NoPorts'] - u0['NoPorts']
        b.check('ethtool -K eth0 rx on')
        u0, s0 = udp_csum_errors(b), stats(b)
        send_udp(b, n, 4002, ',udp_sum=4660')
        u1, s1 = udp_csum_errors(b), stats(b)
    finally:
        b.check('ethtool -K eth0 rx on gro on; ethtool -K swp0 gro on; '
                'tc qdisc del dev swp0 clsact')
    bad = u1['InCsumErrors'] - u0['InCsumErrors']
    hw = delta(s1, s0, 'rx_checksum_errors')
    # The GDMA counts what its checksum check refused (GDM_RX_CSUM_ERR)
    # and does not mark it: the stack checks it again and counts it.
    need(seen['on'] == n and seen['off'] == 0 and bad == n and hw == n,
         'good datagrams reaching the stack past the filter: %d with rx on, '
         '%d with rx off (want %d and 0); bad ones: Udp InCsumErrors +%d, '
         'eth0 rx_checksum_errors +%d (want +%d each)'
         % (seen['on'], seen['off'], n, bad, hw, n))
    return '%d good UDP datagrams marked CHECKSUM_UNNECESSARY (none with ' \
        'rx off), %d bad ones counted by the GDMA (rx_checksum_errors) ' \
        'and by the stack (InCsumErrors)' % (n, n)


def case_xdp_drop(b, dst=None):
    s0 = stats(b)
    b.check('ip link set dev eth0 xdpdrv obj /tmp/xdp.o sec xdp_drop')
    out = b.check('ip -d link show eth0')
    need('prog/xdp' in out, 'no XDP program on eth0:\n%s' % out)
    got, pout = ping(b, 5, dst=dst)
    s1 = stats(b)
    b.check('ip link set dev eth0 xdpdrv off')
    dropped = delta(s1, s0, 'xdp_drop')
    need(got == 0, 'XDP_DROP: %d/5 pings answered\n%s' % (got, pout))
    need(dropped >= 5, 'XDP_DROP: xdp_drop +%d (5 pings sent)' % dropped)
    ping_ok(b, 'after the XDP program was removed', dst=dst)
    return 'xdp_drop +%d' % dropped


def case_reflect(b, sec, counters):
    """XDP program @sec reflects ns1's pings; @counters count them."""
    b.check(NS + 'ip neigh replace %s lladdr %s dev swp1' % (IP0, MAC0))
    s0 = stats(b)
    b.check('ip link set dev eth0 xdpdrv obj /tmp/xdp.o sec %s' % sec)
    # The echo requests from ns1 enter the switch at port 1 and reach the
    # CPU from port 0; the program sends them back out of port 0 to port 1
    # with the MAC addresses swapped: ns1 sees requests from swp0's MAC.
    b.check(NS + 'sh -c "timeout 30 tcpdump -i swp1 -nn -e -l -c 5 '
            '\'ether src %s and icmp[icmptype] = 8 and dst host %s\' '
            '> /tmp/xdptx.txt 2>/dev/null &"; sleep 3' % (MAC0, IP0),
            timeout=60)
    got, pout = ping(b, 5, ns=True)
    st, out = b.run('for i in $(seq 50); do [ $(wc -l < /tmp/xdptx.txt) '
                    '-ge 5 ] && break; sleep 0.2; done; cat /tmp/xdptx.txt',
                    timeout=60)
    s1 = stats(b)
    b.check('ip link set dev eth0 xdpdrv off')
    seen = len(re.findall(r'ICMP echo request', out))
    need(seen >= 5, '%s: ns1 saw %d reflected requests (5 sent):\n%s\n%s'
         % (sec, seen, out, pout))
    counted = {c: delta(s1, s0, c) for c in counters}
    need(all(n >= 5 for n in counted.values()), '%s: %s' % (sec, counted))
    need(got == 0, '%s: %d of the reflected pings were answered'
         % (sec, got))
    ping_ok(b, 'after the XDP program was removed')
    return 'ns1 received %d reflected echo requests, %s' % (
        seen, ', '.join('%s +%d' % c for c in counted.items()))


def set_conduit(b, conduit):
    # DSA gives a port without a DT address its new conduit's: swp0 keeps
    # MAC0, which ns1 has as a permanent neighbour (case_reflect).
    b.check('ip link set swp0 down && ip link set %s up && '
            'ip link set swp0 type dsa master %s && '
            'ip link set swp0 address %s && ip link set swp0 up'
            % (conduit, conduit, MAC0))
    out = b.check('ip -d link show swp0')
    need(re.search(r'\b%s\b' % conduit, out), 'swp0 not on %s:\n%s'
         % (conduit, out))


def case_conduit(b):
    """swp0 through CPU port 5 (eth1); ns1's swp1 still through eth0."""
    tx0, rx0 = dsa.netdev_stat(b, 'eth1', 'tx_packets'), \
        dsa.netdev_stat(b, 'eth1', 'rx_packets')
    try:
        set_conduit(b, 'eth1')
        ping_ok(b, 'swp0 on eth1', count=5, wait=30)
        tx = dsa.netdev_stat(b, 'eth1', 'tx_packets') - tx0
        rx = dsa.netdev_stat(b, 'eth1', 'rx_packets') - rx0
    finally:
        set_conduit(b, 'eth0')
    need(tx >= 5 and rx >= 5, 'eth1 tx_packets +%d, rx_packets +%d while '
         'swp0 pinged through it' % (tx, rx))
    ping_ok(b, 'swp0 back on eth0')
    return 'eth1 tx_packets +%d, rx_packets +%d' % (tx, rx)


def promiscuity(b, dev):
    m = re.search(r'promiscuity (\d+)', b.check('ip -d link show %s' % dev))
    need(m, 'no promiscuity in ip -d link show %s' % dev)
    return int(m.group(1))


def case_uc_filter(b):
    """A second unicast address on eth1: the stack makes it promiscuous,
    because ralink_fe does not claim a unicast filter (the GDMA hands
    every unicast frame to the CPU). eth1 carries no user port here, so
    no user port's address is on its list already (that would have made
    it promiscuous before, and the check blind)."""
    uc = '02:00:00:00:aa:01'
    b.check('ip link set eth1 up')
    try:
        p0 = promiscuity(b, 'eth1')
        b.check('bridge fdb add %s dev eth1 self permanent' % uc)
        p1 = promiscuity(b, 'eth1')
        b.check('bridge fdb del %s dev eth1 self permanent' % uc)
        p2 = promiscuity(b, 'eth1')
    finally:
        b.run('bridge fdb del %s dev eth1 self permanent' % uc)
    need(p1 == p0 + 1 and p2 == p0, 'eth1 promiscuity %d, %d with the '
         'second address, %d after it' % (p0, p1, p2))
    return 'eth1 promiscuity %d -> %d -> %d' % (p0, p1, p2)


def peer_frames(b, sends):
    """Frames from PEER_MAC tcpdump sees on swp2 while @sends run."""
    b.check('sh -c "timeout 60 tcpdump -i swp2 -nn -e -l '
            '\'ether src %s\' > /tmp/peer.txt 2>/dev/null &"; sleep 3'
            % PEER_MAC.hex(':'), timeout=60)
    for send in sends:
        send()
    b.check('sleep 2; pkill tcpdump; sleep 0.5; true')
    return b.check('cat /tmp/peer.txt')


def link_errors(b, dev):
    """get_stats64's RX error counters of @dev (ip -s -s link).

    The switch driver hands out numbers up to RSW_STATS_MAX_AGE (1 s) old
    and refreshes older ones when asked: ask, wait, ask again.
    """
    out = b.check('ip -s link show %s >/dev/null; sleep 1.5; '
                  'ip -s -s link show %s' % (dev, dev))
    m = re.search(r'RX errors:.*\n\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)', out)
    need(m, 'no RX errors line:\n%s' % out)
    return {'length': int(m.group(1)), 'crc': int(m.group(2))}


def rmon(b, dev):
    out = b.check('ethtool -S %s --groups rmon' % dev)
    return {k: int(v) for k, v in
            re.findall(r'^rmon-(\w+): (\d+)$', out, re.M)}


def pause_stats(b, dev):
    out = b.check('ethtool -I -a %s' % dev)
    m = re.search(r'rx_pause_frames: (\d+)', out)
    need(m, 'no rx_pause_frames:\n%s' % out)
    return int(m.group(1))


def case_bad_frames(b, peer):
    """Runt, oversized and bad-VLAN-tag frames: dropped and counted."""
    b.check('ip link add br0 type bridge vlan_filtering 1 && '
            'ip link set swp2 master br0 && ip link set swp2 up && '
            'ip link set br0 up')
    try:
        b.check('(for i in $(seq 100); do bridge link show dev swp2 | '
                'grep -q "state forwarding" && exit 0; sleep 0.1; done; '
                'bridge link show; exit 1)', timeout=60)
        good = eth(BCAST, PEER_MAC, 0x88b5, b'good' * 4)
        bad = {
            # shorter than an Ethernet header
            'RxUnderSizeErr': BCAST + PEER_MAC[:5],
            # 1600 bytes + FCS: above the 1536 bytes of MTU 1500
            'RxOverSzErr': eth(BCAST, PEER_MAC, 0x88b5, b'\x55' * 1586),
            # VLAN 100: port 2 is a member of VLAN 1 only
            'RxFiltering': eth(BCAST, PEER_MAC, 0x8100,
                               b'\x00\x64\x88\xb5' + b'vlan' * 4),
            # a PAUSE frame (MAC Control, opcode 1): ends in the MAC
            'RxPause': eth(bytes.fromhex('0180c2000001'), PEER_MAC, 0x8808,
                           b'\x00\x01\xff\xff'),
        }
        s0, e0 = stats(b, 'swp2'), link_errors(b, 'swp2')
        r0, p0 = rmon(b, 'swp2'), pause_stats(b, 'swp2')
        sends = [lambda: peer.send(good)]
        for frame in bad.values():
            sends += [lambda f=frame: peer.send(f)]
        sends += [lambda: peer.send(good)]
        seen = peer_frames(b, sends)
        s1, e1 = stats(b, 'swp2'), link_errors(b, 'swp2')
        r1, p1 = rmon(b, 'swp2'), pause_stats(b, 'swp2')
    finally:
        b.check('ip link del br0')
    # One line per frame (tcpdump adds hex lines for unknown EtherTypes)
    got = len(re.findall(r'^\d\d:\d\d:\S+ ', seen, re.M))
    counted = {k: delta(s1, s0, k) for k in bad}
    length = e1['length'] - e0['length']
    need(got == 2, 'tcpdump on swp2 saw %d frames from the peer (2 good '
         'ones sent around the bad ones):\n%s' % (got, seen))
    need(all(n == 1 for n in counted.values()), 'MIB deltas: %s' % counted)
    need(length == 2, 'get_stats64 rx_length_errors +%d (want +2)' % length)
    # The standard groups see the same frames (ethtool -S --groups rmon,
    # ethtool -I -a): get_rmon_stats and get_pause_stats.
    moved = {k: r1.get(k, 0) - r0.get(k, 0) for k in
             ('etherStatsUndersizePkts', 'etherStatsOversizePkts')}
    pauses = p1 - p0
    need(all(n == 1 for n in moved.values()) and pauses == 1,
         'rmon %s, rx_pause_frames +%d (want +1 each)' % (moved, pauses))
    return 'MIB %s; rx_length_errors +%d; rmon %s; rx_pause_frames +%d; ' \
        'the 2 good frames arrived' % (
            ', '.join('%s +%d' % c for c in counted.items()), length,
            ', '.join('%s +%d' % c for c in moved.items()), pauses)


def case_tx_timeout(b, reg=FE_BASE + QDMA_GLO_CFG, dst=None, size=None):
    """The TX DMA stalled through @reg's TX_DMA_EN (a GLO_CFG); pings of
    @dst, of @size bytes (ping's 56 by default) while it waits for the
    watchdog: the queue stops once BQL's limit is in flight, which takes
    one frame or twenty, as the limit stands."""
    dst = dst or IP1
    since = dsa.dmesg_lines(b)
    val = int(b.check('devmem 0x%x 32' % reg).strip(), 16)
    need(val & GLO_TX_DMA_EN, 'GLO_CFG 0x%08x: TX DMA not enabled' % val)
    b.check('devmem 0x%x 32 0x%x' % (reg, val & ~GLO_TX_DMA_EN))
    got, out = ping(b, 3, dst=dst)
    need(got == 0, 'TX DMA stalled, yet %d/3 pings answered' % got)
    # dev_watchdog: 5 s (watchdog_timeo) after the queue stopped moving.
    st, out = b.run('for i in $(seq 60); do dmesg | tail -n +%d | grep -q '
                    '"resetting the DMA" && break; ping -c 1 -W 1 %s%s '
                    '>/dev/null; sleep 0.5; done; dmesg | tail -n +%d'
                    % (since + 1, '-s %d ' % size if size else '', dst,
                       since + 1), timeout=120)
    need('NETDEV WATCHDOG' in out and 'TX timeout' in out and
         'resetting the DMA' in out,
         'no watchdog / TX timeout / DMA reset in dmesg:\n%s' % out)
    ping_ok(b, 'after the DMA reset', wait=30, dst=dst)
    val = int(b.check('devmem 0x%x 32' % reg).strip(), 16)
    need(val & GLO_TX_DMA_EN, 'GLO_CFG 0x%08x after the reset' % val)
    oops = dsa.new_oopses(b, since)
    need(not oops, oops)
    return 'dmesg: %s' % ' | '.join(
        line.strip() for line in out.splitlines()
        if re.search('WATCHDOG|TX timeout|DMA', line))


# Rounds of @body, each waiting for the netdev (a switch's user port)
# that its drivers make last.
LOOP = ('(end=$(($(cut -d. -f1 /proc/uptime) + {secs})); n=0; '
        'while [ $n -lt {rounds} ] && '
        '[ $(cut -d. -f1 /proc/uptime) -lt $end ]; do {body} || '
        '{{ echo "round $n failed"; exit 1; }}; '
        'for j in $(seq 200); do [ -e /sys/class/net/{dev} ] && break; '
        'sleep 0.1; done; [ -e /sys/class/net/{dev} ] || '
        '{{ echo "round $n: no {dev}"; exit 1; }}; n=$((n + 1)); done; '
        'echo "rounds=$n")')
RMMOD = ('rmmod ralink_mt7530 && rmmod ralink_fe && modprobe ralink_fe && '
         'modprobe ralink_mt7530')
FE_DRV = '/sys/bus/platform/drivers/ralink_fe'
UNBIND = ('echo 1e100000.ethernet > %s/unbind && '
          'echo 1e100000.ethernet > %s/bind' % (FE_DRV, FE_DRV))
# The switch on the frame engine's MDIO bus, address 0x1f
SW_DRV = '/sys/bus/mdio_bus/drivers/ralink-mt7530'
SW_UNBIND = ('sw=$(basename $(ls -d %s/*:1f)) && echo $sw > %s/unbind && '
             'echo $sw > %s/bind' % (SW_DRV, SW_DRV, SW_DRV))


def loop(suite, b, what, body, dev='swp3', rounds=ROUNDS):
    t = time.monotonic()
    st, out = b.run(LOOP.format(secs=LOOP_SECS, rounds=rounds, body=body,
                                dev=dev), timeout=LOOP_SECS * 3 + 60)
    secs = time.monotonic() - t
    m = re.search(r'rounds=(\d+)', out)
    n = int(m.group(1)) if m else 0
    ok = st == 0 and n == rounds
    # The name stays the same from run to run; what was done is a comment.
    suite.result(ok, '%s, %d rounds in a row' % (what, rounds),
                 '%s\n%s' % (out, b.run('dmesg | tail -20')[1]))
    suite.comment('%s: %d rounds, %.1f s each under TCG'
                  % (what, n, secs / max(n, 1)))
    return ok


def board_args(peer):
    """Ports 0 and 1 on one hub (looped), port 2 the host peer."""
    return dsa.loop_args()[:8] + peer.netdev('peer')


def main_board(suite, xdp):
    peer = Peer('C', PEER_MAC, '192.0.2.12')
    peer.answer = False
    # Two CPUs of the four (maxcpus=2): teardown still meets NAPI, the
    # interrupt and the stack on another CPU, and two more vCPUs only
    # spin under MTTCG on the host's two (the three loops: 151 s of vCPU
    # with four, 128 s with two, 96 s with one).
    with Board('gnubee-pc1', dtb=dsa.DTB, extra=board_args(peer),
               append=dt_bootargs(dsa.DTB) + ' kmemleak=on maxcpus=2') as b:
        b.wait_ready()
        b.check('%s %s swp0 swp1 swp2 swp3' % (dsa.LOAD, SET), timeout=120)
        dsa.kmemleak_start(b)
        since = dsa.dmesg_lines(b)
        with open(xdp, 'rb') as f:
            b.put('/tmp/xdp.o', f.read())
        b.check('head -c 1048576 /dev/urandom > /tmp/tx.bin')
        setup_ports(b)

        suite.check('ethtool: drvinfo, link, ring sizes, coalescing, '
                    'rx-copybreak, pause, standard stats groups, BQL',
                    lambda: case_ethtool(b))
        suite.check('MTU: max %d accepted, %d refused, DF ping at the DSA '
                    'ports\' max passes' % (MAX_MTU, MAX_MTU + 1),
                    lambda: case_mtu(b))
        suite.check('checksum offload: TCP transfer intact with TSO on',
                    lambda: tcp_transfer(b, 'on', 5001))
        suite.check('checksum offload: TCP transfer intact with TSO off',
                    lambda: tcp_transfer(b, 'off', 5002))
        b.check('ethtool -K eth0 tso on')
        suite.check('checksum offload: RX verdict marks good UDP, bad UDP '
                    'counted by the GDMA and the stack',
                    lambda: case_rx_csum(b))
        suite.check('XDP_DROP: frames dropped and counted, traffic back '
                    'after detach', lambda: case_xdp_drop(b))
        suite.check('XDP_TX: ns1 receives the reflected frames',
                    lambda: case_reflect(b, 'xdp_tx', ['xdp_tx']))
        suite.check('XDP_REDIRECT to eth0 (ndo_xdp_xmit): ns1 receives the '
                    'reflected frames',
                    lambda: case_reflect(b, 'xdp_redirect',
                                         ['xdp_redirect', 'xdp_xmit']))
        suite.check('second CPU port: swp0 through eth1 (GMAC1, port 5) '
                    'and back', lambda: case_conduit(b))
        suite.check('runt, oversized, bad-VLAN-tag and PAUSE frames on '
                    'port 2 are dropped and counted (MIB, rmon, pause)', lambda: case_bad_frames(b, peer))
        suite.check('TX timeout: TX DMA stalled, watchdog fires, DMA reset, '
                    'traffic recovers', lambda: case_tx_timeout(b))
        suite.check('no unicast filter claimed: a second unicast address '
                    'makes eth1 promiscuous', lambda: case_uc_filter(b))

        b.check(NS + 'pkill ncat; ip netns del ns1; true')
        loop(suite, b, 'rmmod/modprobe ralink_fe and ralink_mt7530', RMMOD)
        loop(suite, b, 'sysfs unbind/bind ralink_fe', UNBIND)
        loop(suite, b, 'sysfs unbind/bind the switch (ralink-mt7530)',
             SW_UNBIND)
        # The drivers work after the loops.
        setup_ports(b)
        b.check(NS + 'pkill ncat; ip netns del ns1; true')
        leaks = dsa.kmemleak_leaks(b)
        suite.result(not leaks, 'kmemleak empty after the tests and loops',
                     leaks)
        oops = dsa.new_oopses(b, since)
        suite.result(not oops, 'no WARNING/BUG/Oops in dmesg', oops)
    suite.qemu_log(b, 'the main board')


def bad_dt(suite, bed, name, dtb, niced=False):
    """Boot @bed's board with @dtb, its case @name: the driver it breaks
    must not bind, and say why. @niced: QEMU runs niced (beside a board
    that times what it sees). Return the board (closed).

    A broken frame engine leaves no netdev at all; a broken switch leaves
    the frame engine's netdevs and no user ports.
    """
    _, prop, part = bed.cases[name]
    switch = part == 'switch'
    drv = bed.sw_drv if switch else bed.fe_drv
    # One CPU: a probe that fails tests no SMP, and more CPUs only add to
    # the boot's host time.
    with Board(bed.board, dtb=dtb, extra=bed.extra(), nosmp=True,
               niced=niced) as b:
        b.wait_ready()
        st, out = b.run('dmesg -n 1; %s; sleep 2; '
                        'dmesg | grep -E "%s"; echo "bound:"; ls %s | '
                        'grep -E "%s"; echo "netdevs:"; ls /sys/class/net | '
                        'grep -E "eth|swp"; echo "oops:"; dmesg | grep -E '
                        '"%s"; rmmod %s'
                        % ('; '.join('modprobe ' + m for m in bed.modules),
                           bed.log, drv, bed.bound, OOPS,
                           ' '.join(bed.modules[::-1])), timeout=120)
    msgs, rest = out.split('bound:', 1)
    bound, rest = rest.split('netdevs:', 1)
    netdevs, oops = rest.split('oops:', 1)
    errs = [line for line in msgs.splitlines()
            if re.search(r'[ "/]%s\b' % re.escape(prop), line)]
    want = bed.netdevs if switch else []
    ok = (st == 0 and errs and not bound.strip() and
          netdevs.split() == want and not oops.strip())
    suite.result(ok, '%sbad DT (%s): %s probe fails, dev_err names "%s", '
                 'no oops' % (bed.name, name, 'switch' if switch else
                              'frame engine', prop), out)
    if ok:
        suite.comment(errs[-1].strip())
    suite.qemu_log(b, '%sbad DT (%s)' % (bed.name, name))
    return b


GNUBEE_BAD = BadDtBed('', 'gnubee-pc1', 'main', dsa.DTB,
                      ('ralink_fe', 'ralink_mt7530'), r'ralink|1e100000|:1f',
                      FE_DRV, SW_DRV, r'ethernet|:1f', ['eth0', 'eth1'],
                      dsa.loop_args, BAD_DT)


def main():
    suite = Suite('ours-eth')
    t = time.monotonic()
    os.makedirs(OUT, exist_ok=True)
    xdp = build_xdp(OUT)
    dtbs = build_bad_dtbs(GNUBEE_BAD, OUT)
    main_board(suite, xdp)
    suite.comment('main board: %.0f s' % (time.monotonic() - t))
    for name, dtb in dtbs.items():
        bad_dt(suite, GNUBEE_BAD, name, dtb)
    suite.comment('total: %.0f s' % (time.monotonic() - t))
    return 1 if suite.failed else 0


if __name__ == '__main__':
    sys.exit(main())
