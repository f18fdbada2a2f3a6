#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""esw-net: the MT7628's frame engine and switch models under mainline's
driver, the first oracle of both; then our ralink_fe on them.

The VoCore2 (MT7628AN) and the RT5350 evaluation board load mainline
6.12's mtk_eth_soc, a module of the mt76x8 and rt305x kernels, on
"ralink,rt5350-eth" (kernel/patches/0005 adds the MT7628's node, 0007 the
RT5350's DT, 0008 lets SOC_RT305X build the driver):
PDMA TX rings, PDMA RX ring 0, the delayed interrupts, the reset line.
Then each board boots again and loads our ralink_fe instead (fe_rt5350.c:
PDMA TX ring 0 through fe_tx_pdma.c, the SDM through fe_sdm.c), and the
same checks run. The RT3052 evaluation board has no mainline driver for
its frame engine (the older map: ralink_fe's fe_rt3050.c, GDMA1 and its
counters at 0x700, TX checksums) and runs with ralink_fe only. The MT7620A
evaluation board has none either (ralink_fe's fe_mt7620.c: the RT5350's
PDMA map, GDMA1 at 0x600 and its counters at 0x1300, the TX VLAN table
at 0x430) and its switch is the GSW (the MT7530 model, chip mt7620),
whose PHYs the suite reads through PIAC, its port 0's link through PMSR. No driver
programs the ESW: it is the unmanaged switch it is out of reset. Host peers A and B are on front ports 0 and 1 (UDP
sockets), QEMU's user networking on port 2. Checked, per board and
driver:
- the driver binds the frame engine and eth0 comes up;
- the ESW's PHYs through its MDIO registers (PCR0/PCR1): identifier,
  link where a backend is (port 0) and not where none is (port 3); POA
  and the PORT_ST_CHG status follow a link that goes and comes back;
- A's ping of the board and the board's ping of A (ARP both ways); on
  the RT3052, with GDMA1_FWD_CFG sending every class to discard (devmem),
  A's ping does not reach the board (negative), and does again once the
  register is back;
- the RT3052's TX VLAN insertion: with 17 VLAN devices on eth0 the
  frame engine's VLAN table holds VID 0 and the first 15 VIDs, and A
  gets each device's ARP requests tagged with its VID (15 inserted by the
  frame engine from the table, 2 by the stack) and priority (one device
  has an egress map to priority 5: txd4's priority bits); rewriting a
  device's table entry (devmem) changes the VID its frames arrive on;
- 10,000 frames from A to B through the switch alone (numbered and
  checksummed, tests/tools/soak.c): none lost, corrupted or doubled;
- 10,000 echo requests from A to the board, at most WINDOW unanswered:
  10,000 replies with their sequence numbers and data;
- a TCP transfer each way with a host server behind the user networking
  (4 MiB down with busybox wget, 4 MiB up with nc), their SHA-256 the
  host's: the download fills the RX ring many times over, both send
  scatter-gather frames (a descriptor's second segment: without it the
  download's request never arrives whole, found by breaking it once);
- the MT7620's revisions: its frame engine offers scatter-gather, TSO
  and IPv6 TX checksums from ECO 5 on (OpenWrt's soc_mt7620.c; ralink_fe
  reads CHIP_REV through "mediatek,ethsys"). The board's chip is ECO 6:
  the four features are on (`ethstats -k`), and a 4 MiB TCP upload over
  IPv4 and one over IPv6 (SLAAC from the user networking) arrive whole at
  the host with the frame engine cutting them: GDMA1 sends TSO_EXTRA more
  frames than the stack hands the driver at least (1625 and 3080 in one
  run, 2730 and 3406 in another: TCP's segments a frame follow its
  pacing, and so the host's load; broken once: without the driver's TSO
  the two counts are one). A second boot of the board as
  ECO 2 (`-global ralink-soc.eco=2`; the kernel prints "eco:2"): the
  driver says so, the four features are off [fixed], the same uploads
  arrive whole with one frame sent a frame handed, and the model's log of
  a frame asking for what ECO 2 lacks stays empty (the QEMU log verdict;
  broken once: the driver ignoring the revision);
- RX checksums: a UDP datagram with a wrong checksum reaches the kernel
  unchecked (it counts InCsumErrors) and is counted in SDM_CS_ERR
  (the RT3052: GDMA1's checksum error counter), a right one is passed as
  checked;
- the SDM (RT3052: GDMA1) counters the driver reads for `ip -s link` moved with the
  frames (the frame engine's own count of what it sent and received):
  from the registers with mainline's driver; with ralink_fe through the
  driver (`ethtool -S`, or tests/tools/ethstats where the initramfs has
  no ethtool), which reads them itself (they clear when read: on the
  RT3052 its RX stall watch reads them every second), and the checksum
  error count likewise;
- 20,000 random frames from A and B (model_net's generator: cut and
  stacked tags, broken IP headers, link-local and multicast addresses):
  QEMU stays up, A pings B and the board after them;
- the QEMU log holds nothing unexpected (tests/lib/board.py names what
  mainline touches that the MT7628 does not have).
"""

import hashlib
import http.server
import os
import random
import re
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board, dmesg_and_poweroff  # noqa: E402
from board import Timeout  # noqa: E402
from peer import (Peer, csum, eth, ipv4, icmp_echo, send_paced,  # noqa: E402
                  soak)
from tap import Prefixed, Suite  # noqa: E402
sys.path.insert(0, os.path.dirname(__file__))
from model_net import FUZZ_SEED, fuzz_frame  # noqa: E402

# The MT7628AN's and the RT5350's frame engines are one map (mainline's
# rt5350_data, the model's ralink_fe.c)
BOARDS = ('vocore2', 'rt5350-eval', 'rt3052-eval', 'mt7620a-eval')
# The RT3052's frame engine: no mainline driver; its GDMA1's counters at
# 0x700 instead of the SDM's (TX packets, TX bytes, RX packets, RX bytes,
# RX checksum errors, as sdm() returns them)
OURS_ONLY = ('rt3052-eval', 'mt7620a-eval')
COUNTERS = {'rt3052-eval': ('GDMA1', (0x10100704, 0x10100700, 0x10100724,
                                      0x10100720, 0x10100738)),
            'mt7620a-eval': ('GDMA1', (0x10101304, 0x10101300, 0x10101324,
                                       0x10101320, 0x10101338))}
SDM = ('SDM', (0x10100d00, 0x10100d04, 0x10100d08, 0x10100d0c,
               0x10100d10))
# The RT3052's GDMA1_FWD_CFG: where each class of frame from the switch
# goes, 15:0 a port number per class (unicast to its MAC, broadcast,
# multicast, other), 7 discard, which ralink_fe sets when eth0 goes down
GDMA_FWD = {'rt3052-eval': 0x10100020, 'mt7620a-eval': 0x10100600}
GDMA_DISCARD_ALL = 0x7777
# The RT3052's TX VLAN table (DMA_VID0-7: 16 VIDs, two a register, the
# even entry in 11:0, the odd one in 27:16), which ralink_fe fills with
# the VIDs of eth0's VLAN devices, VID 0 first (the stack adds it when
# eth0 comes up); txd4 names an entry. 17 VLAN devices: 15 get an entry,
# the last two are tagged in software.
VID_TABLE = {'rt3052-eval': 0x101000a8, 'mt7620a-eval': 0x10100430}
# The MT7620A's switch is the GSW (the MT7530 model, chip mt7620): its
# front ports are that model's NICs, its PHYs behind PIAC
NIC_MODEL = {'mt7620a-eval': 'mt7530'}
# What a board's bootloader leaves set up that the test's kernel, which
# has no switch driver here, relies on: the GSW's CPU port forced to a
# 1 Gbit/s full-duplex link (PMCR_P6 = 0x5e33b, as U-Boot's mt7620-eth and
# OpenWrt's mt7620_mac_init() write it; out of reset it follows a PHY
# port 6 does not have, and passes no frame)
BOOTLOADER = {'mt7620a-eval': ((0x10113600, 0x5e33b),)}
# The MT7620's ECO revisions: the board's own (CHIP_REV), and one before
# ECO_FULL, from which on the frame engine has ECO_FEATURES (OpenWrt's
# soc_mt7620.c; the kernel's names of them, as `ethstats -k` prints them)
ECO = {'mt7620a-eval': (6, 2)}
ECO_FULL = 5
# TSO's segments beyond the frames handed to the driver, at least, in a
# BLOB upload (1455 and 676 more in two runs; a frame apart without TSO)
TSO_EXTRA = 100
ECO_FEATURES = ('tx-scatter-gather', 'tx-tcp-segmentation',
                'tx-tcp6-segmentation', 'tx-checksum-ipv6')
VLANS = list(range(101, 118))
VLAN_PCP = 5
MAC_A, IP_A = bytes.fromhex('02000000000a'), '192.0.2.10'
MAC_B, IP_B = bytes.fromhex('02000000000b'), '192.0.2.11'
IP_BOARD = '192.0.2.1'
FRAMES = 10000
WINDOW = 16
BLOB = 4 << 20
FUZZ = 20000


class Blobs(http.server.BaseHTTPRequestHandler):
    """GET /blob: the download."""
    blob = os.urandom(BLOB)

    def do_GET(self):
        self.send_response(200)
        self.send_header('Content-Length', str(len(self.blob)))
        self.end_headers()
        self.wfile.write(self.blob)

    def log_message(self, *args):
        pass


def sink(n, family=socket.AF_INET):
    """A TCP server on the host (IPv4 or IPv6 loopback, as @family) that
    takes @n bytes from one connection and closes it; its port, and a list
    that gets their SHA-256."""
    ls = socket.socket(family)
    ls.bind(('::1' if family == socket.AF_INET6 else '127.0.0.1', 0))
    ls.listen(1)
    digests = []

    def serve():
        c, _ = ls.accept()
        h, left = hashlib.sha256(), n
        while left:
            d = c.recv(min(left, 65536))
            if not d:
                break
            h.update(d)
            left -= len(d)
        digests.append(h.hexdigest())
        c.close()
        ls.close()
    threading.Thread(target=serve, daemon=True).start()
    return ls.getsockname()[1], digests


def echo_flood(a, board_mac, n, window):
    """A sends @n echo requests to the board, at most @window unanswered;
    the sequence numbers answered with the right data, and the seconds."""
    a.keep, a.answer = False, True
    got, bad = set(), []
    lock = threading.Condition()
    keep = a.received

    def received(frame):
        keep(frame)
        if (len(frame) >= 42 and frame[12:14] == b'\x08\x00' and
                frame[23] == 1 and frame[34] == 0 and
                frame[38:40] == b'\x52\x46'):
            seq = struct.unpack('!H', frame[40:42])[0]
            with lock:
                if frame[42:42 + 32] == payload(seq):
                    got.add(seq)
                else:
                    bad.append(seq)
                lock.notify_all()
    a.received = received
    t0 = time.monotonic()
    try:
        for seq in range(n):
            with lock:
                if not lock.wait_for(lambda: seq - len(got) < window, 10):
                    break
            a.send(eth(board_mac, a.mac, 0x0800,
                       ipv4(a.ip, IP_BOARD, 1,
                            icmp_echo(8, 0x5246, seq, payload(seq)))))
        with lock:
            lock.wait_for(lambda: len(got) >= n, 10)
    finally:
        a.received = keep
        a.keep = True
    return got, bad, time.monotonic() - t0


def payload(seq):
    return struct.pack('!H', seq) * 16


def udp(src, dst, sport, dport, data, good=True):
    """A UDP datagram with its checksum, or with a wrong one."""
    hdr = struct.pack('!HHHH', sport, dport, 8 + len(data), 0)
    pseudo = (socket.inet_aton(src) + socket.inet_aton(dst) +
              struct.pack('!BBH', 0, 17, 8 + len(data)))
    c = csum(pseudo + hdr + data) or 0xffff
    if not good:
        c ^= 0x0101
    return hdr[:6] + struct.pack('!H', c) + data


def snmp_udp(b):
    """The board's UDP counters: {name: value}."""
    lines = [ln.split() for ln in b.check('grep ^Udp: /proc/net/snmp')
             .splitlines()]
    return dict(zip(lines[0][1:], map(int, lines[1][1:])))


def timed(b, cmd, timeout):
    """@cmd's status and output, or (None, why) if it did not end."""
    try:
        return b.run(cmd, timeout=timeout)
    except Timeout as e:
        return None, str(e)


ESW = 0x10110000
ISR, POA, PCR0, PCR1 = ESW + 0x00, ESW + 0x80, ESW + 0xc0, ESW + 0xc4
PORT_ST_CHG = 1 << 26
# The GSW (same base): PIAC, port 0's PMSR, the interrupt status
GSW_PIAC, GSW_PMSR0, GSW_ISR = ESW + 0x7004, ESW + 0x3008, ESW + 0x700c


def mdio_read(b, phy, reg):
    """PHY @phy's register @reg through the switch's PCR0/PCR1: (PCR1's
    flags after the read, the data)."""
    out = b.check('devmem %#x 32 %#x; devmem %#x 32; devmem %#x 32'
                  % (PCR0, (1 << 14) | (reg << 8) | phy, PCR1, PCR1))
    first, again = (int(x, 16) for x in out.split())
    return first & 3, first >> 16, again & 3


def piac_read(b, phy, reg):
    """PHY @phy's register @reg through the GSW's PIAC: (the busy bit after
    the command, the data)."""
    val = int(b.check('devmem %#x 32 %#x; devmem %#x 32'
                      % (GSW_PIAC, (1 << 31) | (reg << 25) | (phy << 20) |
                         (2 << 18), GSW_PIAC)).split()[-1], 16)
    return val >> 31, val & 0xffff


def esw_phys(t, b):
    """The ESW's PHYs through its MDIO: their identifier, the link of port
    0 (A's) and port 3 (no backend), POA and the interrupt status as A's
    link goes and comes back."""
    flags, id1, after = mdio_read(b, 0, 2)
    t.result(flags == 2 and id1 == 0x03a2 and after == 0,
             'PHY 0 answers through PCR0/PCR1 (RD_RDY, ID 0x03a2, the '
             'flag cleared once read)', 'flags %d ID1 %#x then flags %d'
             % (flags, id1, after))
    bmsr = [mdio_read(b, p, 1)[1] for p in (0, 3)]
    t.result(bmsr[0] & 4 and not bmsr[1] & 4, 'PHY 0 has link, PHY 3 '
             '(no backend) has none', 'BMSR %#x, %#x' % tuple(bmsr))
    b.check('devmem %#x 32 %#x' % (ISR, PORT_ST_CHG))
    poa0 = int(b.check('devmem %#x 32' % POA), 16)
    b.hmp('set_link pa off')
    poa1 = int(b.check('devmem %#x 32' % POA), 16)
    isr1 = int(b.check('devmem %#x 32' % ISR), 16)
    b.hmp('set_link pa on')
    time.sleep(0.2)
    poa2 = int(b.check('devmem %#x 32' % POA), 16)
    t.result(poa0 & (1 << 25) and not poa1 & (1 << 25) and
             poa2 & (1 << 25) and isr1 & PORT_ST_CHG,
             'POA follows port 0\'s link, PORT_ST_CHG says it changed',
             'POA %#x, %#x after set_link off (ISR %#x), %#x after on'
             % (poa0, poa1, isr1, poa2))


def gsw_phys(t, b):
    """The GSW's PHYs through PIAC: their identifier, the link of port 0
    (A's) and port 3 (no backend); port 0's PMSR and the interrupt status
    as A's link goes and comes back."""
    busy, id1 = piac_read(b, 0, 2)
    t.result(not busy and id1 == 0x03a2, 'PHY 0 answers through PIAC '
             '(done, ID 0x03a2)', 'busy %d ID1 %#x' % (busy, id1))
    bmsr = [piac_read(b, p, 1)[1] for p in (0, 3)]
    t.result(bmsr[0] & 4 and not bmsr[1] & 4, 'PHY 0 has link, PHY 3 '
             '(no backend) has none', 'BMSR %#x, %#x' % tuple(bmsr))
    b.check('devmem %#x 32 1' % GSW_ISR)
    pmsr0 = int(b.check('devmem %#x 32' % GSW_PMSR0), 16)
    b.hmp('set_link pa off')
    pmsr1 = int(b.check('devmem %#x 32' % GSW_PMSR0), 16)
    isr1 = int(b.check('devmem %#x 32' % GSW_ISR), 16)
    b.hmp('set_link pa on')
    time.sleep(0.2)
    pmsr2 = int(b.check('devmem %#x 32' % GSW_PMSR0), 16)
    t.result(pmsr0 & 1 and not pmsr1 & 1 and pmsr2 & 1 and isr1 & 1,
             'port 0\'s PMSR follows its link (100 Mbit/s full duplex), '
             'the interrupt status says it changed',
             'PMSR %#x, %#x after set_link off (ISR %#x), %#x after on'
             % (pmsr0, pmsr1, isr1, pmsr2))
    t.result(pmsr0 & 0xe == 0x6, 'port 0 links at 100 Mbit/s, full duplex '
             '(the GSW\'s PHYs)', 'PMSR %#x' % pmsr0)


def counters_of(board):
    """The name and addresses of @board's frame engine counters."""
    return COUNTERS.get(board, SDM)


def sdm(b, board):
    """@board's frame engine counters (the SDM's or GDMA1's), cleared
    when read: TX packets, TX bytes, RX packets, RX bytes."""
    regs = counters_of(board)[1][:4]
    out = b.check('for r in %s; do devmem $r 32; done'
                  % ' '.join('%#x' % r for r in regs))
    return [int(x, 16) for x in out.split()]


# The frame engine's driver per set: its module, the binding's message
DRIVERS = (('mainline', 'mtk_eth',
            r'mtk_soc_eth 10100000.ethernet eth0: mediatek frame engine at '
            r'0xb0100000, irq 5'),
           ('ours', 'ralink_fe',
            r'ralink_fe 10100000.ethernet: (RT5350/MT7628|RT3050|MT7620) '
            r'frame engine, IRQ 5'))
# How the driver's statistics are read (`ethtool -S`'s output): ethtool
# where the rootfs has it, else our static ethstats (tests/tools)
ETHTOOL = {'vocore2': '/usr/sbin/ethtool -S'}
ETHSTATS = '/usr/local/bin/ethstats'


def main():
    t = Suite('esw-net')
    for board in BOARDS:
        for drivers in DRIVERS:
            if board in OURS_ONLY and drivers[0] != 'ours':
                continue
            if board_net(t, board, *drivers):
                return 1
        if board in ECO:
            board_eco(t, board, ECO[board][1])
    return 0


def driver_stats(b, board):
    """eth0's driver statistics (ethtool -S): {name: value}."""
    out = b.check('%s eth0' % ETHTOOL.get(board, ETHSTATS))
    return dict((k.strip(), int(v)) for k, v in
                (ln.split(':') for ln in out.splitlines()[1:]))


def sdm_ethtool(b, board):
    """ralink_fe's counts of the SDM's (GDMA1's) counters, as sdm()
    returns them: the driver reads (and so clears) the registers itself
    (the RT3052's RX stall watch every second), so ours are read through
    it."""
    stats = driver_stats(b, board)
    return [stats[k] for k in ('tx_packets', 'tx_bytes', 'rx_packets',
                               'rx_bytes')]


def cs_errors(b, board, drivers, reg):
    """The frame engine's count of RX checksum errors: the register
    (cleared when read: the count since the last read) with mainline's
    driver, the driver's accumulated count with ours."""
    if drivers == 'ours':
        return driver_stats(b, board)['rx_checksum_errors']
    return int(b.check('devmem %#x 32' % reg), 16)


def vid_table(b, reg):
    """The 16 VIDs of the TX VLAN table, by entry."""
    words = [int(b.check('devmem %#x 32' % (reg + 4 * i)), 16)
             for i in range(8)]
    return [w >> sh & 0xfff for w in words for sh in (0, 16)]


def vlan_arps(b, a, vlans):
    """Ping an absent host 10.1.N.2 on each of eth0.@vlans at once (N the
    VLAN less 100): the tags of the ARP requests A gets for each, as
    {VLAN: {(VID, PCP)}} (the ARP requests of earlier pings, repeated once
    a second, count for their own address only)."""
    since = a.mark()
    b.check('for v in %s; do ping -c 1 -W 1 10.1.$((v - 100)).2 '
            '>/dev/null & done; wait; true' % ' '.join(map(str, vlans)),
            timeout=30)
    time.sleep(0.5)
    with a.cond:
        frames = a.frames[since:]
    got = {}
    for f in frames:
        if (len(f) >= 46 and f[12:14] == b'\x81\x00' and
                f[16:18] == b'\x08\x06' and f[24:26] == b'\x00\x01' and
                f[42:44] == b'\x0a\x01' and f[45] == 2 and
                f[44] + 100 in vlans):
            tci = struct.unpack('!H', f[14:16])[0]
            got.setdefault(f[44] + 100, set()).add((tci & 0xfff, tci >> 13))
    return got


def vlan_insertion(t, b, a, reg):
    """TX VLAN insertion through the RT3052's VID table."""
    st, out = b.run('for v in %s; do ip link add link eth0 name eth0.$v '
                    'type vlan id $v && ip link set eth0.$v up && ip addr '
                    'add 10.1.$((v - 100)).1/24 dev eth0.$v || break; done; '
                    'vconfig set_egress_map eth0.%d 0 %d'
                    % (' '.join(map(str, VLANS)), VLANS[0], VLAN_PCP))
    table = vid_table(b, reg)
    want = sorted([0] + VLANS[:15])
    t.result(st == 0 and sorted(table) == want, 'the TX VLAN table holds '
             'VID 0 and the first 15 of %d VLAN devices\' VIDs'
             % len(VLANS), '%s %s: table %s' % (st, out, table))
    got = vlan_arps(b, a, VLANS)
    want = {v: {(v, VLAN_PCP if v == VLANS[0] else 0)} for v in VLANS}
    t.result(got == want, 'A gets the ARP requests of all %d VLAN devices '
             'tagged with their VIDs (%d-%d from the table, %d-%d in '
             'software) and priorities (eth0.%d\'s egress map: %d)'
             % (len(VLANS), VLANS[0], VLANS[14], VLANS[15], VLANS[-1],
                VLANS[0], VLAN_PCP), 'VLAN: {(VID, PCP)} %s' % got)
    # The hardware takes the VID from the entry txd4 names: rewritten, the
    # frames of eth0.101 go out with the entry's new VID
    i = table.index(VLANS[1])
    addr = reg + i // 2 * 4
    word = int(b.check('devmem %#x 32' % addr), 16)
    sh = 16 * (i & 1)
    b.check('devmem %#x 32 %#x' % (addr, word & ~(0xfff << sh) |
                                   201 << sh))
    got = vlan_arps(b, a, VLANS[1:2])
    b.check('devmem %#x 32 %#x' % (addr, word))
    t.result(got == {VLANS[1]: {(201, 0)}}, 'eth0.%d\'s frames take their '
             'VID from table entry %d: rewritten to VID 201 (devmem), they '
             'arrive on VID 201' % (VLANS[1], i),
             'VLAN: {(VID, PCP)} %s' % got)
    b.check('for v in %s; do ip link del eth0.$v; done'
            % ' '.join(map(str, VLANS)))


def udp_checksums(t, b, a, board_mac, errors):
    """The RX checksum check: a UDP datagram to a closed port with its
    checksum is a NoPorts, one with a wrong checksum an InCsumErrors (the
    kernel checks it itself unless rxd4 says L4_VALID). Return how much
    @errors() (the frame engine's count of bad checksums) grew."""
    c0 = snmp_udp(b)
    cs0 = errors()
    for good in (True, False):
        a.send(eth(board_mac, a.mac, 0x0800,
                   ipv4(IP_A, IP_BOARD, 17,
                        udp(IP_A, IP_BOARD, 4000, 9, b'x' * 32, good))))
        time.sleep(0.3)
    c1 = snmp_udp(b)
    cs_err = errors() - cs0
    t.result(c1['NoPorts'] - c0['NoPorts'] == 1 and
             c1['InCsumErrors'] - c0['InCsumErrors'] == 1,
             'a UDP datagram with a wrong checksum is not passed as '
             'checked (InCsumErrors), the right one is (NoPorts)',
             'before %s after %s' % (c0, c1))
    return cs_err


def features(b):
    """eth0's features as `ethtool -k` prints them (the kernel's names):
    {name: 'on'|'off [fixed]'|...}."""
    out = b.check('%s -k eth0' % ETHSTATS)
    return dict((k.strip(), v.strip()) for k, v in
                (ln.split(':', 1) for ln in out.splitlines()[1:]
                 if ':' in ln))


def slaac(b):
    """eth0's global IPv6 address from the user networking's router
    advertisement (its prefix fec0::/64), or None."""
    out = b.check('for i in $(seq 100); do ip -6 addr show dev eth0 | '
                  'grep -q "inet6 fec0:" && break; sleep 0.1; done; '
                  'ip -6 addr show dev eth0')
    m = re.search(r'inet6 (fec0:[0-9a-f:]+)/', out)
    return m.group(1) if m else None


def upload(b, board, host, family, timeout):
    """BLOB random bytes from the board to a sink() at @host (the user
    networking's address of the host): whether they arrived whole, the
    frames the stack handed eth0's driver and those GDMA1 sent meanwhile
    (through the driver), and what went wrong."""
    b.check('dd if=/dev/urandom of=/tmp/up bs=64k count=%d 2>/dev/null'
            % (BLOB >> 16))
    mine = b.check('sha256sum /tmp/up').split()[0]
    stack0 = int(b.check('cat /sys/class/net/eth0/statistics/tx_packets'))
    gdma0 = driver_stats(b, board)['tx_packets']
    port, digests = sink(BLOB, family)
    st, out = timed(b, 'nc %s %d < /tmp/up' % (host, port), timeout)
    time.sleep(0.5)
    stack = int(b.check('cat /sys/class/net/eth0/statistics/tx_packets'))
    gdma = driver_stats(b, board)['tx_packets']
    b.check('rm /tmp/up')
    return (digests == [mine], stack - stack0, gdma - gdma0,
            'board %s host %s (nc: %s %s)' % (mine, digests, st, out))


def revision(t, b, board, eco):
    """The offloads of the MT7620's ECO @eco (the board runs as it),
    and TCP uploads over IPv4 and IPv6 through them."""
    full = eco >= ECO_FULL
    want = 'on' if full else 'off [fixed]'
    f = features(b)
    t.result(all(f.get(k) == want for k in ECO_FEATURES), 'ECO %d: %s %s'
             % (eco, ', '.join(ECO_FEATURES), want),
             str({k: f.get(k) for k in ECO_FEATURES}))
    v6 = slaac(b)
    t.result(v6 is not None, 'eth0 gets an IPv6 address from the user '
             'networking\'s router advertisement', str(v6))
    for name, host, family in (('IPv4', '10.0.2.2', socket.AF_INET),
                               ('IPv6', 'fec0::2', socket.AF_INET6)):
        whole, stack, gdma, diag = upload(b, board, host, family, 60)
        t.result(whole, 'ECO %d: a TCP upload of %d MiB over %s arrives '
                 'whole' % (eco, BLOB >> 20, name), diag)
        # TSO cuts a frame into several; without it one goes out a frame
        # (the stack's own GSO), the counts a frame apart at most. How
        # many segments TCP gives a frame depends on its pacing, so the
        # host's load: TSO_EXTRA more frames at least
        ok = gdma >= stack + TSO_EXTRA if full else \
            stack <= gdma <= stack + 2
        t.result(ok, 'ECO %d: over %s GDMA1 sent %s (TSO %s)'
                 % (eco, name, '%d more frames than the stack handed the '
                    'driver, at least' % TSO_EXTRA if full else 'a frame '
                    'a frame handed', 'on' if full else 'off'),
                 'the stack handed %d, GDMA1 sent %d' % (stack, gdma))


def board_eco(t, board, eco):
    """@board booted as ECO @eco: the driver sees it, revision()'s
    checks, and the model's log of what that ECO lacks stays empty."""
    t = Prefixed(t, '%s: ours, ECO %d' % (board, eco))
    model = NIC_MODEL.get(board, 'ralink-esw')
    extra = ['-global', 'ralink-soc.eco=%d' % eco,
             '-netdev', 'user,id=pu', '-net', 'nic,netdev=pu,model=%s'
             % model]
    with Board(board, extra=extra) as b:
        b.wait_ready()
        b.check('dmesg -n 1')
        for reg, val in BOOTLOADER.get(board, ()):
            b.check('devmem %#x 32 %#x' % (reg, val))
        st, out = b.run('modprobe ralink_fe')
        dmesg = b.check('dmesg')
        t.result(st == 0 and ' eco:%d' % eco in dmesg and
                 re.search(r'ralink_fe 10100000.ethernet: ECO %d: no '
                           r'scatter-gather, TSO or IPv6 checksums' % eco,
                           dmesg),
                 'the kernel reads ECO %d, ralink_fe binds and says what '
                 'it leaves off' % eco,
                 out + '\n'.join(ln for ln in dmesg.splitlines()
                                 if 'eco' in ln or 'ralink_fe' in ln))
        b.check('ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0')
        up = b.run('for i in $(seq 50); do grep -q 1 '
                   '/sys/class/net/eth0/carrier && break; sleep 0.1; done; '
                   'cat /sys/class/net/eth0/carrier')
        t.result(up[1].strip() == '1', 'eth0 comes up (carrier)', up[1])
        revision(t, b, board, eco)
        dmesg_and_poweroff(t, b, '')
    t.qemu_log(b, '%s: ours, ECO %d' % (board, eco))


def tcp_both_ways(t, b, port, timeout):
    """BLOB bytes down from the host's Blobs server on @port (through the
    user networking) and up to a sink(), each within @timeout seconds,
    their SHA-256 the sender's."""
    want = hashlib.sha256(Blobs.blob).hexdigest()
    st, out = timed(b, 'wget -q -O - http://10.0.2.2:%d/blob | sha256sum'
                    % port, timeout)
    t.result(st == 0 and out.split()[:1] == [want], 'a TCP download '
             'of %d MiB from the host arrives whole' % (BLOB >> 20),
             'board %s host %s' % (out.strip(), want))
    b.check('dd if=/dev/urandom of=/tmp/up bs=64k count=%d 2>/dev/null'
            % (BLOB >> 16))
    mine = b.check('sha256sum /tmp/up').split()[0]
    up_port, digests = sink(BLOB)
    st, out = timed(b, 'nc 10.0.2.2 %d < /tmp/up' % up_port, timeout)
    time.sleep(0.5)
    t.result(digests == [mine], 'a TCP upload of %d MiB arrives whole '
             'at the host' % (BLOB >> 20), 'board %s host %s (nc: %s %s)'
             % (mine, digests, st, out))
    b.check('rm /tmp/up')


def board_net(t, board, drivers, module, bind):
    """Every check on @board with the frame engine driver set @drivers,
    each named with both; True if QEMU died."""
    t = Prefixed(t, '%s: %s' % (board, drivers))
    counters = sdm
    cname, regs = counters_of(board)
    cs_reg = regs[4]
    cs_name = 'SDM_CS_ERR' if cname == 'SDM' else 'GDMA1_RX_CSUM_ERR'
    if drivers == 'ours':
        counters = sdm_ethtool
    a = Peer('A', MAC_A, IP_A)
    bb = Peer('B', MAC_B, IP_B)
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Blobs)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    port = srv.server_address[1]
    model = NIC_MODEL.get(board, 'ralink-esw')
    extra = (a.netdev('pa', model=model) + bb.netdev('pb', model=model) +
             ['-netdev', 'user,id=pu', '-net',
              'nic,netdev=pu,model=%s' % model])
    with Board(board, extra=extra) as b:
        b.wait_ready()
        b.check('dmesg -n 1')
        for reg, val in BOOTLOADER.get(board, ()):
            b.check('devmem %#x 32 %#x' % (reg, val))
        st, out = b.run('modprobe %s' % module)
        dmesg = b.check('dmesg')
        bound = st == 0 and re.search(bind, dmesg)
        t.result(bound, '%s binds the frame engine' % module,
                 out + '\n'.join(ln for ln in dmesg.splitlines()
                                 if 'eth' in ln or 'mtk' in ln))
        b.check('ip link set eth0 up && ip addr add %s/24 dev eth0 && '
                'ip addr add 10.0.2.15/24 dev eth0' % IP_BOARD)
        up = b.run('for i in $(seq 50); do grep -q 1 '
                   '/sys/class/net/eth0/carrier && break; sleep 0.1; done; '
                   'cat /sys/class/net/eth0/carrier')
        t.result(up[1].strip() == '1', 'eth0 comes up (carrier)', up[1])
        board_mac = bytes.fromhex(b.check(
            'cat /sys/class/net/eth0/address').strip().replace(':', ''))
        sdm(b, board)

        if model == 'mt7530':
            gsw_phys(t, b)
        else:
            esw_phys(t, b)

        rtt = a.ping(IP_BOARD, 1)
        t.result(isinstance(rtt, float), 'A pings the board', str(rtt))
        st, out = b.run('ping -c 3 -W 2 %s' % IP_A)
        t.result(st == 0 and '3 packets received' in out,
                 'the board pings A', out)
        if board in GDMA_FWD:
            # The model: while every class goes to discard, nothing from
            # the switch reaches the CPU (ralink_fe's own stop path
            # stops RX DMA too, so only this shows it)
            reg = GDMA_FWD[board]
            fwd = int(b.check('devmem %#x 32' % reg), 16)
            b.check('devmem %#x 32 %#x' % (reg, fwd | GDMA_DISCARD_ALL))
            gone = a.ping(IP_BOARD, 2, wait=3)
            b.check('devmem %#x 32 %#x' % (reg, fwd))
            back = a.ping(IP_BOARD, 3)
            t.result(not isinstance(gone, float), 'GDMA1_FWD_CFG '
                     '(negative): with every class to discard, A\'s ARP '
                     'request and ping do not reach the board', str(gone))
            t.result(isinstance(back, float), 'GDMA1_FWD_CFG: to the CPU '
                     'again, A pings the board', str(back))

        if board in VID_TABLE:
            vlan_insertion(t, b, a, VID_TABLE[board])

        got = soak(a, bb, FRAMES, 64, 5)
        t.result(got[:4] == (FRAMES, 0, 0, 0), '%d frames from A to B '
                 'through the switch, none lost, corrupted or doubled'
                 % FRAMES, 'received %d corrupted %d duplicated %d lost %d '
                 '(%.1f s)' % got)

        before = counters(b, board)
        replies, bad, secs = echo_flood(a, board_mac, FRAMES, WINDOW)
        after = counters(b, board)
        t.result(len(replies) == FRAMES and not bad, '%d echo requests from '
                 'A, each answered with its data' % FRAMES,
                 '%d answered, %d with other data (%.1f s)'
                 % (len(replies), len(bad), secs))
        got = [x - y for x, y in zip(after, before)] \
            if counters is sdm_ethtool else after
        t.result(got[0] >= FRAMES and got[2] >= FRAMES,
                 'the %s counters count them (TX %d, RX %d frames%s)'
                 % (cname, got[0], got[2], ', the driver\'s'
                    if counters is sdm_ethtool else ''),
                 'before %s after %s' % (before, after))

        # The RX checksum check: a UDP datagram to a closed port with its
        # checksum is a NoPorts, one with a wrong checksum an InCsumErrors
        # (the kernel checks it itself unless rxd4 says L4_VALID); the
        # frame engine counts the bad one in SDM_CS_ERR.
        cs_err = udp_checksums(t, b, a, board_mac,
                               lambda: cs_errors(b, board, drivers, cs_reg))
        t.result(cs_err == 1, '%s counted the wrong checksum' % cs_name,
                 '%s %d' % (cs_name, cs_err))

        tcp_both_ways(t, b, port, 60)
        if drivers == 'ours' and board in ECO:
            revision(t, b, board, ECO[board][0])
        # The wire side under random frames (model_net's generator): to
        # the switch's table, VLAN classification, floods, the CPU port
        # and the frame engine's RX
        a.answer = a.keep = bb.answer = bb.keep = False
        rng = random.Random(FUZZ_SEED)
        secs = send_paced(((a, bb)[i % 2], fuzz_frame(rng))
                          for i in range(FUZZ))
        time.sleep(2)
        alive = b.proc.poll() is None
        t.result(alive, '%d random frames (seed %d) on ports 0 and 1: QEMU '
                 'stays up (%.1f s)' % (FUZZ, FUZZ_SEED, secs),
                 'QEMU exited %s' % b.proc.returncode)
        if not alive:
            return True
        a.answer = a.keep = bb.answer = bb.keep = True
        rtt = [a.ping(IP_B, 20), a.ping(IP_BOARD, 21)]
        t.result(all(isinstance(r, float) for r in rtt), 'after them A '
                 'pings B through the switch and the board through the '
                 'frame engine', str(rtt))
        dmesg_and_poweroff(t, b, '')
    srv.shutdown()
    t.qemu_log(b, '%s: %s' % (board, drivers))
    return False


if __name__ == '__main__':
    sys.exit(main())
