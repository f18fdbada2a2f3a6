#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: guest instructions per packet, mainline's drivers and ours.

Each driver set (mainline: mtk_eth + mt7530-mdio; ours: ralink_fe +
ralink_mt7530) gets its boards (BOARD_ROWS): the same kernel, the test
DT with all five switch ports (dsa.DTB), `-accel tcg,thread=single
-icount shift=0,sleep=off` and the insn_window plugin
(bench/plugin/insn_window.c), which counts the instructions the vCPUs
execute, kernel and user, between two marker instructions the guest tool
bench-udp (bench/guest/bench-udp.c) executes. Host peers A (port 0,
swp0) and B (port 1, swp1) stand on the wire and only count; what comes
in at port 0 comes from the switch model's frame generator (its "gen"
property: copies of one frame taken in at port 0 as if from the wire, one
every 1/RATE s of the guest's clock, from a station T behind port 0).

A board runs a plan from its boot on: a shell script this file writes
(Plan: drivers, addresses, each row's configuration, traffic, window and
counters) goes into the initramfs as an archive of its own, and /init
runs it before the console shell starts (rootfs/init). QEMU starts
stopped (-S), the host arms the generator's programs for the whole plan
(each starts when the guest sends T a datagram: `bench-udp`'s trigger,
on a whole second of the guest's clock), and lets the guest run; it reads
the plan's result lines, the windows and the generator's totals when the
plan is done. The host types nothing before that, so the guest's run
does not depend on the host at all: a run is the same instructions
whatever else the host runs (CHECK=1). The same bytes go in, too: the
plan's archive (and bench/build.sh's) is reproducible (`cpio
--reproducible`, file times the epoch: with a fresh archive's inode
numbers and times, boots of one plan differed from the first user-space
process on), user space is not randomised (`norandmaps`), and the
boards have no IPv6 (router solicitations and MLD reports at random
intervals would fall into the windows). And QEMU warps the clock only
once a halted vCPU's slice is accounted (qemu/patches/0022: the I/O
thread's warp could start from a clock behind by that slice, and a
timer then fired late by a host-decided amount). A row is

    (kernel + user instructions of the window) / frames the receiving
    side got

and a row whose receiving side got fewer frames than were sent says so
(`lost:N/SENT` in its cells) and is not compared.

- rx-udp-64, rx-udp-1500: UDP frames of 64 and 1500 bytes (on the wire,
  without FCS) to swp0's address at RATE (the same offered load for both
  sets; the cost per frame depends on it, through NAPI batching and
  interrupt moderation), `bench-udp sink` receives them; the denominator
  is what the sink received.
- tx-udp-64, tx-udp-1500: `bench-udp source` sends as fast as the socket
  takes them to A, WARM frames before the window opens (interrupt
  moderation settles on the traffic, whatever came before) and FRAMES
  in it; the denominator is what left switch port 0 (its MIB's
  TxUnicast: the host peer's own count, which a busy host can lose in its
  socket buffer, is only compared against it in a note).
- xdp-drop-64 (ours only; mainline's mtk_eth has no XDP on the MT7621):
  an XDP_DROP program (tests/xdp/xdp_test.c) on eth0, the conduit; the
  denominator is eth0's xdp_drop counter.
- bridge-cpu-64: frames to B's MAC, the CPU forwards: a tc clsact
  matchall filter with skip_hw redirects swp0's ingress to swp1 (mirred).
  Not a bridge: DSA offloads a bridge of two user ports to the switch
  (then the frames never reach the CPU), and the tc filter is software
  only with either driver set. The denominator is what left port 1 (MIB).
- switched-64: swp0 and swp1 in an offloaded br0, B's address a static
  entry on swp1; the frames to B never reach the CPU, so the window
  holds only what the guest does anyway (timers): about 0 per frame.
- route-nat-64: a small router's software path: swp0 the LAN
  (192.0.2.0/24, T on it), swp1 the WAN (198.51.100.1/24, B the
  upstream router), T's frames to a server beyond B (203.0.113.10)
  routed from swp0 to swp1 (ip_forward, a route via B) and masqueraded
  to swp1's address (nf_tables: a nat chain on postrouting, `oif swp1
  masquerade`, which bench-nat (bench/guest/bench-nat.c) sets over
  netlink: the guest has no nft); one flow, so conntrack's NAT binding
  is made on its first frame and looked up for the others. The
  denominator is what left port 1 (MIB), as bridge-cpu-64's, and B must
  have got them from swp1's address, none from T's (or the board
  fails). A board of its own, the MT7621's last but one.
- route-nat-64-offload: the same traffic and router, the masquerade and
  an nft flowtable with `flags offload` on swp0 and swp1 set with nft
  (the MT7621's initramfs has it): the flow table hands the flow to the
  driver, which binds it in the PPE (ours when the flow comes, mainline
  once the PPE has seen 30 frames in a second: both within the
  generator's lead, before the window opens), and the frames go from
  port 0 to port 1 through the frame engine without reaching the CPU.
  What the window holds is what the guest does anyway (timers), as in
  switched-64. B must have got them masqueraded. A board of its own,
  the MT7621's last.

The RX rows' window opens when the sink has its first frame and closes
with its last (`bench-udp sink`). The other passive rows (xdp-drop,
bridge-cpu, switched) use `bench-udp hold-us`: a window of exactly
FRAMES / RATE s of the guest's clock, opened LEAD_US after the datagram
that started the program; the program runs on TAIL_S past the window's
end, and none of its frames may be lost over the whole run (the row's
counter against what the program sent).

Each row also has the drivers' own instructions per frame: their
modules' functions and the kernel work they directly cause (DMA mapping
and syncing with its cache maintenance, the RX ring's pages and skbs,
what TX completion frees through the calls only drivers make, NAPI
scheduling and completion, net DIM), from the per-function profile of
the window; bench/insn_profile.py (DRIVER_NAMES, DRIVER_OBJECTS) says
which functions, and what is not counted (the generic interrupt entry,
GRO and the stack, the skb core shared with the stack).

Each row also has the uncached accesses per frame: the kernel's loads
and stores to KSEG1 (0xa0000000-0xbfffffff, where these kernels reach
their devices, ioremap() of the low 512 MiB, and the descriptor rings
dma_alloc_coherent() gives a non-coherent device) or to a device
elsewhere (none: the results' "outside KSEG1"), which the plugin counts
in the window (insn_window.c). The results' comment lines split them
into loads and stores, device and RAM, and by device (the memory
region's name in QEMU). On the MT7621 most of them are the GIC's, the
same for both sets: its counter is the clocksource and sched_clock
(three loads a read on a 32-bit core), and every interrupt reads its
pending and mask registers; the frame engine's registers and the rings
are the drivers' part.

The MT7628 (the VoCore2, bench rows `mt7628/...`): the same rows where
the board has the path (rx-udp, tx-udp, xdp-drop on eth0 itself: no
switch driver, the ESW the unmanaged switch it is out of reset, as
mainline 6.12 has no ESW driver), mainline's mtk_eth on
"ralink,rt5350-eth" against our ralink_fe, the mt76x8 kernel and the
VoCore2's own DT, on a clock of 2 ns an instruction; the ESW model has
the same frame generator (ralink_gen.c). The TX rows count what the
frame engine sent (the SDM's count, in both drivers' ethtool -S): the
ESW's port counters have 16 bits. Bed (below) holds what differs.

The MT7620A (its evaluation board, rows `mt7620a/...`): the MT7621's
rows, ours only: mainline 6.12 has no driver for the MT7620's frame
engine or its gigabit switch (GSW), so mainline's cells are `-`. Our
ralink_fe ("mediatek,mt7620-eth") is the conduit and ralink_mt7530
drives the GSW (the MT7530 model with chip=mt7620, behind MMIO: the
same frame generator) through DSA, with no tag on the wire (tag_mt7620:
the port travels in the DMA descriptors); the mt76x8 kernel, the test
DT of gsw-dsa (256 MiB), 2 ns an instruction as the MT7628's. The rows
count by the GSW's MIB TxGood (16-bit fields that ralink_mt7530 adds
up).

The kernel runs on one CPU (`nosmp` on the test DT's command line;
BENCH_SMP=1 keeps all four). With four vCPUs on one TCG thread (needed
for exact counts), a vCPU that spins waiting for another spins for the
rest of its round-robin time slice: millions of instructions a real core
would not execute, at random moments. Measured here with four CPUs, the
same rx-udp-1500 row (3000 frames at 500/s) gave from 13.5k to 139k
instructions a frame from run to run, with either driver set. A TB
profile of such a boot (mainline's drivers, four such rows: 0.3 billion
instructions in their windows) had its hottest blocks in
smp_call_function_many_cond() (8.7 billion instructions over the whole
run: waiting for other CPUs to run an IPI's function) and
queued_spin_lock_slowpath() (0.2 billion). With nosmp the row repeats
within 2 %.

`-icount shift=0,sleep=off` runs the guest's clock on its instructions
(1 ns each, about a real MT7621's pace) and jumps it over idle time to
the next timer, so what the guest times (the frame engine's delayed
interrupts, every 20 us of PTIME; DIM's samples; timer ticks; the
generator's frames) falls on the same instructions from run to run,
and nothing the guest does waits on real time. So the guest exchanges
nothing with the host peers: it knows A's and T's addresses from
permanent neighbour entries (no ARP, whose answers would come in real
time), and A and B only count. With the guest's clock in real time while
it sleeps (sleep=on), a busy host delayed the wake-ups between frames
and the rows moved by up to 50 % between an idle and a loaded host; with
the host typing each row's commands (and so deciding when each timer
the guest then armed would fire against the frames), the rows whose
interrupt moderation parks on a profile that such a timer decides
(bridge-cpu-64) moved by up to 5 %.

CHECK=1: the whole bench twice, on an idle host and again with a CPU
burner (a spinning process per host CPU) running beside it; every row,
whole path and drivers' own, both sets, must agree within CHECK_MAX
(0.5 %), or `make bench` fails; the comparison is at the end of the
results file.

The idle cost (timers) runs in every window in proportion to its length;
it is measured per board in an empty window and reported in comments,
with each row's net count (window less the idle cost of its length), but
the table keeps the plain count.

QUICK=1: a few thousand frames a row instead of 100,000.
BENCH_RESULTS: where to write the results (default build/bench-results.txt).
BENCH_BOARDS=BOARD,...: only these boards' rows (their QEMU machines:
gnubee-pc1, vocore2, mt7620a-eval); default all.

PROFILE=ROW (e.g. PROFILE=rx-udp-64): run only ROW's board (the rows
before it on that board too, so that the window is the table's), with
the plugin's per-TB counters (profile=PATH, kept for every board), and
print the kernel functions by instructions per frame, mainline and ours
side by side, and the totals per group, to stdout and
build/bench-profile-ROW.txt (a board's prefix mt7628/ as mt7628-; not
to the results file). See bench/insn_profile.py.
"""

import collections
import hashlib
import multiprocessing
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
sys.path.insert(0, os.path.join(TOP, 'tests', 'lib'))
from board import (BUILD, QEMU, Board, board_initrd,  # noqa: E402
                   dt_bootargs, initrd_path, kernel_dir)
import dsa  # noqa: E402
import flowtable  # noqa: E402
from peer import Peer, eth, ipv4  # noqa: E402
from xdp import build_xdp  # noqa: E402
import insn_profile as prof  # noqa: E402

QUICK = os.environ.get('QUICK', '') not in ('', '0')
FRAMES = 5000 if QUICK else 100000
SMP = os.environ.get('BENCH_SMP', '') not in ('', '0')
OUT = os.path.join(BUILD, 'bench')
RESULTS = os.environ.get('BENCH_RESULTS',
                         os.path.join(BUILD, 'bench-results.txt'))
PROFILE = os.environ.get('PROFILE', '')
CHECK = os.environ.get('CHECK', '') not in ('', '0')
# CHECK=1: the most two runs of a row may differ by, as a fraction
CHECK_MAX = 0.005
SETS = ['mainline', 'ours']


class Bed:
    """A board the bench runs on: @board with kernel build @kernel, DTB
    @dtb, a guest clock of 2^@shift ns an instruction, its switch model
    at QOM path @qom (the frame generator's), the guest's interface for
    the rows' traffic (@iface), the rows it has (its board groups, see
    BOARD_ROWS below, by their names without @prefix), the rows mainline
    has no path for (@no_path), how each set loads its drivers (@load, a
    shell command; a set without one has no row here), the counter of
    what left towards A (@tx_counter), the plan's shell and its initramfs
    (@initrd: its parts, concatenated); the switch's QEMU type (@nic: its
    front ports' NIC model), the memory where the board's own
    (board.BOARD_MEM) is not the test DT's (@mem), and the counter of
    what left towards B (@fwd_counter: the bridge rows')."""

    def __init__(self, name, prefix, board, kernel, dtb, shift, qom, iface,
                 groups, no_path, load, tx_counter, shell, initrd,
                 nic='mt7530', mem=None, fwd_counter=None):
        self.name, self.prefix, self.board = name, prefix, board
        self.kernel, self.dtb, self.shift, self.qom = kernel, dtb, shift, qom
        self.iface, self.groups, self.no_path = iface, groups, no_path
        self.load, self.tx_counter = load, tx_counter
        self.shell, self.initrd = shell, initrd
        self.nic, self.mem, self.fwd_counter = nic, mem, fwd_counter

    def rows(self):
        return [self.prefix + r for g in self.groups for r in g]


def mt7621_initrd():
    return [initrd_path(OUT, 'initrd', 'bench/build.sh')]


def mt7628_initrd():
    # The VoCore2's own initramfs (rootfs-net and the mt76x8 kernel's
    # modules) and bench-udp (bench/build.sh's extra.cpio.gz)
    return [board_initrd('vocore2', 'mt76x8'),
            os.path.join(OUT, 'extra.cpio.gz')]


def mt7620_initrd():
    # rootfs-net and the mt76x8 kernel's modules, as the VoCore2's (the
    # board's own, rootfs-base, has no iproute2), and bench-udp
    return [board_initrd('mt7620a-eval', 'mt76x8', 'rootfs-net'),
            os.path.join(OUT, 'extra.cpio.gz')]


# The GnuBee PC1's MT7621: the DSA conduit eth0 and user ports swp0 (A's,
# port 0) and swp1 (B's, port 1), mainline's mtk_eth + mt7530-mdio or our
# ralink_fe + ralink_mt7530 (tests/guest/load-drivers.sh); 1 ns an
# instruction, about the 880 MHz 1004Kc's peak. The rows of each board: a
# row starts from the interrupt moderation (DIM) state the rows before it
# on its board left: the same in every run (see the header), but a row's
# number would then depend on which rows came first; the RX and TX rows
# are the first to use their direction, the others get a board of their
# own. PROFILE=ROW runs ROW's board as it is here, so that its profile is
# of the table's window. route-nat-64 is the last group: with QUICK=1's
# one board it comes after the others and so leaves their windows as they
# were. Its offloaded twin, route-nat-64-offload (the PPE's), is a group
# of its own after it.
MT7621 = Bed('MT7621 (GnuBee PC1)', '', 'gnubee-pc1', 'main', dsa.DTB, 0,
             dsa.SWITCH_QOM, 'swp0',
             [['rx-udp-64', 'rx-udp-1500', 'tx-udp-64', 'tx-udp-1500'],
              ['bridge-cpu-64'], ['switched-64'], ['xdp-drop-64'],
              ['route-nat-64'], ['route-nat-64-offload']],
             {'xdp-drop-64'},
             {s: '%s %s swp0 swp1' % (dsa.LOAD, s) for s in SETS},
             'ethstat swp0 TxUnicast', '/bin/bash', mt7621_initrd,
             fwd_counter='ethstat swp1 TxUnicast')
# The VoCore2's MT7628AN: eth0 alone, the ESW left the unmanaged switch it
# is out of reset (mainline 6.12 has no driver for it), mainline's
# mtk_eth ("ralink,rt5350-eth") or our ralink_fe; 2 ns an instruction
# (500 MIPS, below the 580 MHz 24KEc's peak). What left towards A is the
# frame engine's own count of what it sent (the SDM's TX packets, which
# both drivers add up for ethtool -S): the ESW's port counters have 16
# bits. Its initramfs is busybox's (rootfs-net), so the plan runs in ash.
MT7628 = Bed('MT7628 (VoCore2)', 'mt7628/', 'vocore2', 'mt76x8',
             'vocore2.dtb', 1, dsa.MT7628.switch_qom, 'eth0',
             [['rx-udp-64', 'rx-udp-1500', 'tx-udp-64', 'tx-udp-1500'],
              ['xdp-drop-64']],
             {'xdp-drop-64'},
             {'mainline': 'modprobe mtk_eth', 'ours': 'modprobe ralink_fe'},
             'ethstat eth0 tx_packets', '/bin/sh', mt7628_initrd,
             nic=dsa.MT7628.nic)
# The MT7620A evaluation board: its GSW (the MT7530 model, chip mt7620,
# behind MMIO) under our ralink_mt7530 (its MMIO front end) and our
# ralink_fe ("mediatek,mt7620-eth") the conduit, with no tag on the wire
# (tag_mt7620: the port travels in the DMA descriptors); the MT7621's
# rows and boards. Mainline 6.12 has no driver for the MT7620's frame
# engine or its GSW: every row is ours alone. The test DT of gsw-dsa and
# gsw-selftests (swp0-swp4, 256 MiB: rootfs-net does not unpack in the
# board's 32), the mt76x8 kernel, the plan in ash; 2 ns an instruction,
# as the MT7628's (the same 580 MHz 24KEc), so that the two boards' rows
# compare. The GSW's MIB counts frames in 16-bit fields, which
# ralink_mt7530 reads four times a second and adds up (ethtool -S reads
# them afresh): TxGood, every good frame that left (the windows' are all
# unicast).
MT7620_ROWS = [['rx-udp-64', 'rx-udp-1500', 'tx-udp-64', 'tx-udp-1500'],
               ['bridge-cpu-64'], ['switched-64'], ['xdp-drop-64']]
MT7620 = Bed('MT7620A (evaluation board)', 'mt7620a/', dsa.MT7620.board,
             'mt76x8', dsa.MT7620.dtb, 1, dsa.MT7620.switch_qom, 'swp0',
             MT7620_ROWS, set(sum(MT7620_ROWS, [])),
             {'ours': '%s ours swp0 swp1' % dsa.LOAD},
             'ethstat swp0 TxGood', '/bin/sh', mt7620_initrd,
             nic=dsa.MT7620.nic, mem=dsa.MT7620.mem,
             fwd_counter='ethstat swp1 TxGood')
ALL_BEDS = [MT7621, MT7628, MT7620]
BOARDS = [b for b in os.environ.get('BENCH_BOARDS', '').split(',') if b]
BEDS = [bed for bed in ALL_BEDS if not BOARDS or bed.board in BOARDS]
ROWS = [r for bed in BEDS for r in bed.rows()]
ROW_BED = {r: bed for bed in BEDS for r in bed.rows()}
# (bed, rows of a board); QUICK=1 (make test's bench suite, which checks
# that the bench works, not its numbers) keeps to one board a set a bed.
BOARD_ROWS = [(bed, g) for bed in BEDS for g in
              ([sum(bed.groups, [])] if QUICK else bed.groups)]
# Rows a driver set has no path for.
NO_PATH = {('mainline', bed.prefix + r) for bed in BEDS for r in bed.no_path}

IP_SWP0 = '192.0.2.1'
# The address of every port of the guest (eth0, swp0, swp1), which the
# plan sets: DSA gives the user ports the conduit's, and the RX rows'
# frames, armed before the guest boots, need it.
MAC_GUEST = bytes.fromhex('020000000001')
MAC_A = bytes.fromhex('020000000a0a')
MAC_B = bytes.fromhex('020000000b0b')
IP_A = '192.0.2.10'
IP_B = '192.0.2.11'
# The station the frame generator stands for, behind port 0 like A: its
# frames come from T, and the plan starts each armed program with a
# datagram to T (the TX rows' traffic goes to A and starts none).
MAC_T = bytes.fromhex('020000000f0f')
IP_T = '192.0.2.15'
# route-nat-64: swp0 the LAN (192.0.2.0/24, T a host on it), swp1 the
# WAN with the guest's address there, B its upstream router, and the
# server T's frames are to, beyond B
IP_WAN = '198.51.100.1'
IP_GW = '198.51.100.11'
IP_SERVER = '203.0.113.10'
PORT_RX, PORT_TX, PORT_FWD, PORT_TRIGGER = 9000, 9002, 9001, 9003

# Frames a second of the guest's clock the switch model's generator
# takes in at port 0 (the rows other than TX): the same offered load for
# both sets, below what either takes, so that no frame is lost (the cost
# per frame depends on the rate, through NAPI batching and interrupt
# moderation).
RATE = {64: 8000, 1500: 5000}
# A window of fixed length (bench-udp hold-us) opens LEAD_US after the
# guest sent the datagram that starts the generator's program; the
# program has frames for the window and TAIL_S more, which the plan lets
# pass before it reads the row's counters.
LEAD_US = 500000 if QUICK else 2000000
TAIL_S = 1
# Passive rows: guest seconds between their configuration and the
# window, so that what it set off is over (netlink notifications read
# every port's stats, which keeps ours' stats work busy for a while).
# Free under sleep=off: the guest's clock jumps over it.
SETTLE_S = 10
# TX rows: frames sent before the window opens, so that interrupt
# moderation (DIM) has settled on the traffic whatever came before
WARM = 5000
IDLE_MS = 300
# The plan's paths in the guest (its archive, bench/bench.py)
PLAN = '/usr/lib/ralink-fe/bench-plan'
XDP_OBJ = '/usr/lib/ralink-fe/bench-xdp.o'


# A row of one set: the window's instructions (kernel + user), the frames
# the receiving side got of those sent, the window's length, the user
# instructions in it, the driver's own instructions (modules, kernel
# work: prof.driver_own()), the window's profile (prof.Run) and its
# uncached accesses (Uncached).
Result = collections.namedtuple('Result', 'insns frames usecs sent user '
                                'own run unc')
# The plugin's uncached accesses of a window (kernel code's loads and
# stores to KSEG1 or to a device): loads and stores, of them those to
# devices (the rest: uncached RAM, DMA descriptors), and the device
# accesses outside KSEG1 (TLB-mapped; in the others too), and the device
# accesses by device ({memory region name: (loads, stores)}).
Uncached = collections.namedtuple('Uncached', 'loads stores io_loads '
                                  'io_stores mapped devices')
# Per kernel build: built-in kernel symbols and their object files, for
# prof.driver_own()
KSYMS = {}
OMAP = {}


def log(msg):
    sys.stderr.write('bench: %s\n' % msg)
    sys.stderr.flush()


def udp_frame(dst_mac, src_mac, src_ip, dst_ip, dport, size):
    """An Ethernet frame of @size bytes (no FCS) carrying UDP."""
    payload = b'\x00' * (size - 14 - 20 - 8)
    return eth(dst_mac, src_mac, 0x0800,
               ipv4(src_ip, dst_ip, 17, struct.pack(
                   '!HHHH', 40000, dport, 8 + len(payload), 0) + payload))


def udp_dport(f):
    """The UDP destination port of IPv4 frame @f, or None."""
    if len(f) < 38 or f[12:14] != b'\x08\x00' or f[23] != 17:
        return None
    ihl = (f[14] & 0xf) * 4
    return struct.unpack('!H', f[14 + ihl + 2:14 + ihl + 4])[0]


class BenchPeer(Peer):
    """A Peer that counts UDP frames to one port instead of keeping them."""

    def __init__(self, name, mac, ip):
        self.dport, self.counted = None, 0
        # Counted frames by (IPv4 source, destination) address
        self.addrs = collections.Counter()
        super().__init__(name, mac, ip)

    def count(self, dport):
        with self.cond:
            self.dport, self.counted = dport, 0
            self.addrs.clear()

    def received(self, frame):
        if self.dport is not None and udp_dport(frame) == self.dport:
            self.counted += 1
            self.addrs[(socket.inet_ntoa(frame[26:30]),
                        socket.inet_ntoa(frame[30:34]))] += 1
        else:
            self.frames = self.frames[-1000:] + [frame]

    def wait_counted(self, n, timeout, settle=None):
        """Wait for @n counted frames (or, with @settle, until none came
        for @settle seconds); return the count."""
        deadline = time.monotonic() + timeout
        with self.cond:
            last, since = self.counted, time.monotonic()
            while self.counted < n:
                now = time.monotonic()
                if now >= deadline:
                    break
                if self.counted != last:
                    last, since = self.counted, now
                elif settle is not None and now - since >= settle:
                    break
                self.cond.wait(min(deadline - now, 0.1))
            return self.counted


def mac_str(mac):
    return ':'.join('%02x' % x for x in mac)


# The plan's shell functions: say (a line for the host), fail, must CMD
# (CMD or fail), ethstat DEV KEY (an `ethtool -S` counter), until_ok WHAT
# CMD (CMD every 0.1 s until it succeeds, for up to 10 s)
PLAN_HEAD = r'''#!%(shell)s
# SPDX-License-Identifier: GPL-2.0
# make bench: the plan of one board, which bench/bench.py wrote; /init
# runs it before the console shell starts, with no input from the host.
set -u -o pipefail
say() { echo "rfe-bench: $*"; }
fail() {
	say "FAILED: $*"
	exit 1
}
must() {
	"$@" && return
	fail "($?) $*"
}
ethstat() {
	ethtool -S "$1" | awk -v k="$2:" '$1 == k { print $2; n++ } END { exit !n }'
}
until_ok() {
	local what=$1 i
	shift
	for i in $(seq 100); do
		"$@" && return
		sleep 0.1
	done
	fail "no $what after 10 s"
}
'''


class Plan:
    """What one board does from its boot on (see the header): the shell
    script it runs, the generator's programs the host arms before it
    boots, in the order the script starts them (frame, count, period in
    ns), and its windows in order (name, finish): finish(the row's result
    line) gives (frames received, window's usecs, frames sent)."""

    def __init__(self, bed):
        self.bed = bed
        self.lines = [PLAN_HEAD.replace('%(shell)s', bed.shell)]
        if bed.shell == '/bin/sh':
            # busybox's ash runs its own applets first: iproute2's ip
            # (neighbour states, XDP) by its path
            self.lines.append('ip() { /usr/bin/ip "$@"; }\n')
        self.programs = []
        self.windows = []

    def sh(self, text):
        self.lines.append(text.strip('\n') + '\n')

    def gen(self, frame, count, rate):
        self.programs.append((frame, count, round(1e9 / rate)))

    def window(self, name, finish):
        self.windows.append((name, finish))

    def result(self, name, cmd, after=''):
        """Run @cmd (a window), then @after; say @cmd's output (one line)
        and the variables @after set, as @name's result line."""
        self.sh('out=$(%s | tr "\\n" " ") || fail "%s: $out"\n%s'
                'say "result %s $out"' % (cmd, name,
                                          after + '\n' if after else '',
                                          name))

    def script(self):
        return ''.join(self.lines) + 'say done\n'


def counted(text, what):
    """The numbers of @what (a regex with groups) in a result line."""
    m = re.search(what, text)
    if not m:
        raise RuntimeError('no %r in %r' % (what, text))
    return [int(x) for x in m.groups()]


def plan_setup(plan, driver_set, idle):
    """Drivers, addresses and A's and T's neighbour entries; with @idle,
    two empty windows of a second (the idle cost)."""
    bed = plan.bed
    plan.sh('''
say begin
must sysctl -qw net.ipv6.conf.all.disable_ipv6=1
must sysctl -qw net.ipv6.conf.default.disable_ipv6=1
must %(load)s
''' % {'load': bed.load[driver_set]})
    if bed.iface == 'swp0':
        plan.sh('''
for d in eth0 swp0 swp1; do
	must ip link set "$d" address %(mac)s
done
must ip addr add %(ip)s/24 dev swp0
must ip link set swp0 up
must ip link set swp1 up
carrier() {
	ip link show swp0 | grep -q LOWER_UP && ip link show swp1 | grep -q LOWER_UP
}
until_ok "carrier on swp0 and swp1" carrier
''' % {'mac': mac_str(MAC_GUEST), 'ip': IP_SWP0})
    else:
        plan.sh('''
must ip link set %(dev)s address %(mac)s
must ip addr add %(ip)s/24 dev %(dev)s
must ip link set %(dev)s up
carrier() {
	ip link show %(dev)s | grep -q LOWER_UP
}
until_ok "carrier on %(dev)s" carrier
''' % {'dev': bed.iface, 'mac': mac_str(MAC_GUEST), 'ip': IP_SWP0})
    plan.sh('''
must ip neigh replace %(ip_a)s lladdr %(mac_a)s dev %(dev)s nud permanent
must ip neigh replace %(ip_t)s lladdr %(mac_t)s dev %(dev)s nud permanent
''' % {'dev': bed.iface, 'ip_a': IP_A, 'mac_a': mac_str(MAC_A),
       'ip_t': IP_T, 'mac_t': mac_str(MAC_T)})
    if idle:
        for i in range(2):
            plan.result('idle%d' % i, 'bench-udp hold-us 0 1000000')
            plan.window('idle%d' % i, lambda t: (
                0, counted(t, r'window closed after (\d+) us')[0], 0))


def plan_rx(plan, size):
    name = plan.bed.prefix + 'rx-udp-%d' % size
    plan.gen(udp_frame(MAC_GUEST, MAC_T, IP_T, IP_SWP0, PORT_RX, size),
             FRAMES, RATE[size])
    plan.result(name, 'bench-udp sink %d %d %d %s %d' % (
        PORT_RX, FRAMES, IDLE_MS, IP_T, PORT_TRIGGER))
    # The window opens on the first frame: the rest are in it
    plan.window(name, lambda t: tuple(counted(
        t, r'received (\d+) in (\d+) us')) + (FRAMES - 1,))


def plan_tx(plan, size):
    name = plan.bed.prefix + 'tx-udp-%d' % size
    counter = plan.bed.tx_counter
    plan.sh('mib0=$(%s) || fail "%s: MIB"' % (counter, name))
    plan.result(name, 'bench-udp source %s %d %d %d %d' % (
        IP_A, PORT_TX, size - 42, FRAMES, WARM),
        'mib1=$(%s) && out="$out mib $mib0 $mib1" || '
        'fail "%s: MIB"' % (counter, name))

    def finish(t):
        sent, usecs = counted(t, r'sent (\d+) in (\d+) us')
        a, b = counted(t, r'mib (\d+) (\d+)')
        # What left port 0 (the switch's MIB; the MT7628: what the frame
        # engine sent to the switch), not what the host peer read: a busy
        # host drops datagrams in its socket's buffer.
        return b - a - WARM, usecs, sent
    plan.window(name, finish)


def timed_count():
    """The frames of a timed row's program: its window's, and those of the
    lead before it and the tail after it."""
    return FRAMES + round(RATE[64] * (LEAD_US / 1e6 + TAIL_S))


def plan_timed(plan, name, frame, counter):
    """A window of FRAMES frames' time of the generator's @frame at
    RATE[64], SETTLE_S after the row's configuration; @counter (shell)
    counts what the receiving side got. None of the program's frames may
    be lost, in the window or out of it."""
    rate = RATE[64]
    count = timed_count()
    plan.gen(frame, count, rate)
    plan.sh('must sleep %d\nc0=$(%s) || fail "%s: counter"'
            % (SETTLE_S, counter, name))
    plan.result(name, 'bench-udp hold-us %d %d %s %d' % (
        LEAD_US, FRAMES * 1000000 // rate, IP_T, PORT_TRIGGER),
        'must sleep %d\nc1=$(%s) && out="$out counter $c0 $c1" || '
        'fail "%s: counter"' % (TAIL_S + 1, counter, name))

    def finish(t):
        usecs, = counted(t, r'window closed after (\d+) us')
        a, b = counted(t, r'counter (\d+) (\d+)')
        return FRAMES - max(0, count - (b - a)), usecs, FRAMES
    plan.window(name, finish)


def plan_bridge_cpu(plan):
    if plan.bed.shell == '/bin/sh':
        # busybox's ash runs its own tc applet first (no clsact, no
        # matchall): iproute2's by its path
        plan.sh('tc() { /usr/sbin/tc "$@"; }')
    for dev, to in (('swp0', 'swp1'), ('swp1', 'swp0')):
        plan.sh('must ip link set %s promisc on\n'
                'must tc qdisc add dev %s clsact\n'
                'must tc filter add dev %s ingress matchall skip_hw action '
                'mirred egress redirect dev %s' % (dev, dev, dev, to))
    plan_timed(plan, plan.bed.prefix + 'bridge-cpu-64',
               udp_frame(MAC_B, MAC_T, IP_T, IP_B, PORT_FWD, 64),
               plan.bed.fwd_counter)
    for dev in ('swp0', 'swp1'):
        plan.sh('must tc qdisc del dev %s clsact\n'
                'must ip link set %s promisc off' % (dev, dev))


def plan_switched(plan):
    # B stands at port 1 by a static entry (no frame from the host,
    # whose timing would be the host's), T is learnt from its frames.
    plan.sh('''
must ip link add br0 type bridge
must ip link set swp0 master br0
must ip link set swp1 master br0
must ip link set br0 up
forwarding() {
	[ "$(bridge link show | grep -c "state forwarding")" = 2 ]
}
until_ok "forwarding swp0 and swp1" forwarding
must bridge fdb add %s dev swp1 master static
''' % mac_str(MAC_B))
    plan_timed(plan, plan.bed.prefix + 'switched-64',
               udp_frame(MAC_B, MAC_T, IP_T, IP_B, PORT_FWD, 64),
               plan.bed.fwd_counter)
    plan.sh('must ip link del br0')


def plan_route_nat(plan):
    """T's frames to a server beyond B: routed from swp0 (LAN) to swp1
    (WAN) and masqueraded to swp1's address (nf_tables, bench-nat),
    conntrack's one flow; what left port 1 counts, as bridge-cpu-64's."""
    plan.sh('''
must ip addr add %(wan)s/24 dev swp1
must ip neigh replace %(gw)s lladdr %(mac_b)s dev swp1 nud permanent
must ip route add %(server)s/32 via %(gw)s dev swp1
must bench-nat masquerade swp1
must sysctl -qw net.ipv4.ip_forward=1
''' % {'wan': IP_WAN, 'gw': IP_GW, 'mac_b': mac_str(MAC_B),
       'server': IP_SERVER})
    plan_timed(plan, plan.bed.prefix + 'route-nat-64',
               udp_frame(MAC_GUEST, MAC_T, IP_T, IP_SERVER, PORT_FWD, 64),
               plan.bed.fwd_counter)
    plan.sh('''
must sysctl -qw net.ipv4.ip_forward=0
must bench-nat flush
must ip route del %(server)s/32
must ip addr del %(wan)s/24 dev swp1
''' % {'wan': IP_WAN, 'server': IP_SERVER})


NFT_OFFLOAD = flowtable.ruleset('bench', ('swp0', 'swp1'), ('udp',), ('swp1',))


def plan_route_nat_offload(plan):
    """route-nat-64's traffic with the flow offloaded to the PPE (nft's
    flowtable, flags offload): the window holds what the CPU still does."""
    plan.sh('''
must ip addr add %(wan)s/24 dev swp1
must ip neigh replace %(gw)s lladdr %(mac_b)s dev swp1 nud permanent
must ip route add %(server)s/32 via %(gw)s dev swp1
cat > /tmp/bench.nft <<'EOF'
%(nft)sEOF
must nft -f /tmp/bench.nft
must sysctl -qw net.ipv4.ip_forward=1
''' % {'wan': IP_WAN, 'gw': IP_GW, 'mac_b': mac_str(MAC_B),
       'server': IP_SERVER, 'nft': NFT_OFFLOAD})
    plan_timed(plan, plan.bed.prefix + 'route-nat-64-offload',
               udp_frame(MAC_GUEST, MAC_T, IP_T, IP_SERVER, PORT_FWD, 64),
               plan.bed.fwd_counter)
    plan.sh('''
must grep -q HW_OFFLOAD /proc/net/nf_conntrack
must sysctl -qw net.ipv4.ip_forward=0
must nft delete table inet bench
must ip route del %(server)s/32
must ip addr del %(wan)s/24 dev swp1
''' % {'wan': IP_WAN, 'server': IP_SERVER})


def plan_xdp(plan):
    plan.sh('must ip link set dev eth0 xdpdrv obj %s sec xdp_drop' % XDP_OBJ)
    plan_timed(plan, plan.bed.prefix + 'xdp-drop-64',
               udp_frame(MAC_GUEST, MAC_T, IP_T, IP_SWP0, PORT_RX, 64),
               'ethstat eth0 xdp_drop')
    plan.sh('must ip link set dev eth0 xdpdrv off')


PLAN_ROWS = {'rx-udp-64': lambda p: plan_rx(p, 64),
             'rx-udp-1500': lambda p: plan_rx(p, 1500),
             'tx-udp-64': lambda p: plan_tx(p, 64),
             'tx-udp-1500': lambda p: plan_tx(p, 1500),
             'bridge-cpu-64': plan_bridge_cpu,
             'switched-64': plan_switched,
             'xdp-drop-64': plan_xdp,
             'route-nat-64': plan_route_nat,
             'route-nat-64-offload': plan_route_nat_offload}


def plan_initrd(stem, plan, xdp):
    """The bench's initramfs of @plan's bed with an archive of @plan's
    script (and the XDP object @xdp) after it; its path."""
    stage = os.path.join(OUT, 'plan-%s' % stem)
    subprocess.run(['rm', '-rf', stage], check=True)
    os.makedirs(os.path.join(stage, 'usr/lib/ralink-fe'))
    names = ['usr', 'usr/lib', 'usr/lib/ralink-fe', PLAN.lstrip('/')]
    with open(os.path.join(stage, PLAN.lstrip('/')), 'w') as f:
        f.write(plan.script())
    os.chmod(os.path.join(stage, PLAN.lstrip('/')), 0o755)
    if xdp:
        subprocess.run(['cp', xdp, os.path.join(stage, XDP_OBJ.lstrip('/'))],
                       check=True)
        names.append(XDP_OBJ.lstrip('/'))
    # The same archive for the same plan (its files' times are the epoch)
    for name in names:
        os.utime(os.path.join(stage, name), (0, 0))
    archive = subprocess.run(
        ['cpio', '--quiet', '-o', '-H', 'newc', '-R', '0:0',
         '--reproducible'],
        input=('\n'.join(names) + '\n').encode(), cwd=stage,
        capture_output=True, check=True).stdout
    path = os.path.join(OUT, 'initrd-%s.cpio' % stem)
    with open(path, 'wb') as out:
        # Linux unpacks concatenated archives in order; an uncompressed
        # one after a compressed one starts on a 4-byte boundary
        for part in plan.bed.initrd():
            with open(part, 'rb') as f:
                out.write(f.read())
            out.write(b'\0' * (-out.tell() % 4))
        out.write(archive)
    return path


class Bench:
    """One driver set: its boards, their plans, and its rows."""

    def __init__(self, driver_set, xdp, tag=''):
        self.set = driver_set
        self.xdp = xdp
        self.tag = tag
        # The last window's TB counts and the guest's module symbols
        self.tb_counts = None
        self.kallsyms = None
        self.a = BenchPeer('A', MAC_A, IP_A)
        self.b = BenchPeer('B', MAC_B, IP_B)
        # row: Result
        self.results = {}
        self.notes = []
        # QEMU log lines board.py does not explain, of every board
        self.problems = []
        self.board = None
        # bed name: idle cost, instructions a microsecond, and the uncached
        # accesses a microsecond of the same window
        self.idle = {}
        self.idle_unc = {}
        # (n, bed, host seconds from QEMU's start to its end) a board
        self.board_secs = []
        # n: (notes, QEMU log problems) of board n
        self.job_notes = {}

    def start_board(self, n, plan):
        """Boot board @n of this set (BOARD_ROWS[n]) on @plan: QEMU
        starts stopped, the host arms the plan's generator programs, then
        the guest runs."""
        bed = plan.bed
        self.stem = stem = '%s%s-%d' % (self.set, self.tag, n)
        self.windows = os.path.join(OUT, 'windows-%s.txt' % stem)
        self.profile = os.path.join(OUT, 'profile-%s.txt' % stem)
        self.console = open(os.path.join(OUT, 'console-%s.log' % stem),
                            'wb')
        plugin = '%s,out=%s,profile=%s' % (
            os.path.join(OUT, 'libinsn_window.so'), self.windows,
            self.profile)
        extra = ['-initrd', plan_initrd(stem, plan, self.xdp),
                 '-accel', 'tcg,thread=single', '-icount',
                 'shift=%d,sleep=off' % bed.shift, '-S',
                 '-plugin', plugin]
        self.board = Board(bed.board, dtb=bed.dtb, initrd=False,
                           append=bootargs(bed), mem=bed.mem, extra=extra +
                           self.a.netdev('pa', model=bed.nic) +
                           self.b.netdev('pb', model=bed.nic),
                           log=self.console)
        self.nwin = 0
        b = self.board
        for frame, count, period in plan.programs:
            out = b.hmp('qom-set %s gen arm 0 %d %d %s' % (
                bed.qom, count, period, frame.hex()))
            if out:
                raise RuntimeError('the frame generator refused: %s' % out)
        self.a.count(PORT_TX)
        self.b.count(PORT_FWD)
        b.hmp('cont')

    def close_board(self):
        if self.board:
            self.board.close()
            self.problems += self.board.log_problems()
            self.console.close()
            self.board = None

    def progress(self, msg):
        log('%s: %s' % (self.set, msg))

    # -- windows ---------------------------------------------------------
    def window(self):
        """The counts of the next window: (kernel, user, Uncached)."""
        with open(self.windows) as f:
            lines = f.read().splitlines()
        if len(lines) <= self.nwin:
            raise RuntimeError('the plugin wrote no window %d' % self.nwin)
        m = re.match(r'window (\d+) kernel (\d+) user (\d+) uncached '
                     r'(\d+) (\d+) io (\d+) (\d+) mapped (\d+) '
                     r'devices((?: \S+=\d+/\d+)*)$', lines[self.nwin])
        if not m or int(m.group(1)) != self.nwin:
            raise RuntimeError('unexpected window line %r' % lines[self.nwin])
        self.nwin += 1
        self.tb_counts = self.profile_window(self.nwin - 1)
        devices = collections.Counter()
        for d in m.group(9).split():
            name, ls = d.rsplit('=', 1)
            # A region without a name is "anon" and its address: the
            # same region gets another name in another run
            if re.match(r'anon[0-9a-f]{8}$', name):
                name = 'anon'
            ld, st = (int(x) for x in ls.split('/'))
            devices[name + '/loads'] += ld
            devices[name + '/stores'] += st
        devices = {n: (devices[n + '/loads'], devices[n + '/stores'])
                   for n in {k.rsplit('/', 1)[0] for k in devices}}
        return int(m.group(2)), int(m.group(3)), Uncached(
            *[int(x) for x in m.groups()[3:8]], devices=devices)

    def profile_window(self, n):
        """The plugin's TB counts of window @n: {vaddr: (insns, execs)}."""
        deadline = time.monotonic() + 30
        head = 'window %d\n' % n
        while True:
            with open(self.profile) as f:
                text = f.read()
            i = text.find(head)
            j = text.find('end\n', i) if i >= 0 else -1
            if j >= 0:
                break
            if time.monotonic() > deadline:
                raise RuntimeError('no profile of window %d' % n)
            time.sleep(0.05)
        counts = {}
        for line in text[i + len(head):j].splitlines():
            a, insns, execs = line.split()
            counts[int(a, 16)] = (int(insns), int(execs))
        return counts

    def read_kallsyms(self):
        """The guest's /proc/kallsyms lines of module text, and a few
        built-in symbols to check System.map against."""
        b = self.board
        b.check('echo 0 > /proc/sys/kernel/kptr_restrict')
        out = b.check("grep -E '^[0-9a-f]+ [tTwW] ' /proc/kallsyms | grep "
                      "-E '\\[|( (netif_receive_skb|__do_softirq|"
                      "schedule)$)'", timeout=300)
        self.kallsyms = out.splitlines()
        with open(os.path.join(OUT, 'kallsyms-%s.txt' % self.stem),
                  'w') as f:
            f.write(out)
        self.progress('%d module and check symbols from /proc/kallsyms'
                      % len(self.kallsyms))

    def generator(self, plan):
        """After the plan: every program ran, and none of its frames was
        dropped; held frames go into the notes."""
        state = self.board.hmp('qom-get %s gen' % plan.bed.qom)
        g = re.search(r'"sent (\d+) held (\d+) dropped (\d+) left (\d+)"$',
                      state)
        want = sum(count for _, count, _ in plan.programs)
        if not g or int(g.group(1)) != want or int(g.group(4)):
            raise RuntimeError('the frame generator sent %s of %d frames '
                               '(every program ran to its end?): %r'
                               % (g.group(1) if g else '?', want, state))
        if int(g.group(2)) or int(g.group(3)):
            self.notes.append('%s: generator held %s, dropped %s'
                              % (self.set, g.group(2), g.group(3)))

    # -- a board ---------------------------------------------------------
    def run_board(self, n, bed, rows, idle):
        plan = Plan(bed)
        plan_setup(plan, self.set, idle)
        for name in rows:
            PLAN_ROWS[name](plan)
        self.start_board(n, plan)
        b = self.board
        m = b.wait_for(r'rfe-bench: (done|FAILED: .*)\r?\n', 3600)
        if m.group(1) != b'done':
            raise RuntimeError('the plan %s' % m.group(1).decode())
        self.boot_secs = b.wait_ready()
        text = b.text()
        results = dict(re.findall(r'rfe-bench: result (\S+) (.*?)\r?\n',
                                  text))
        self.generator(plan)
        self.read_kallsyms()
        idle_rates = []
        for name, finish in plan.windows:
            k, u, unc = self.window()
            frames, usecs, sent = finish(results.get(name, ''))
            if name.startswith('idle'):
                idle_rates.append(((k + u) / usecs,
                                   (unc.loads + unc.stores) / usecs))
            else:
                self.record(bed, name, k, u, frames, usecs, sent, unc)
        if idle_rates:
            self.idle[bed.name], self.idle_unc[bed.name] = min(idle_rates)
            self.progress('%s idle: %.0f instructions/s (%s)' % (
                bed.name, self.idle[bed.name] * 1e6,
                ', '.join('%.0f' % (r * 1e6) for r, _ in idle_rates)))
        self.peer_notes([bed.prefix + r for r in rows])
        if 'route-nat-64' in rows or 'route-nat-64-offload' in rows:
            self.check_nat()
        _, dmesg = b.run('dmesg | grep -E "Oops|BUG:|WARNING:" | head -n 5')
        if dmesg.strip():
            self.notes.append('%s: dmesg: %s' % (self.set, dmesg.strip()))

    def peer_notes(self, rows):
        """What the host peers read against what the switch sent them: a
        note where they differ (a busy host drops datagrams in its
        sockets' buffers; the rows count by the switch's MIB)."""
        tx_rows = [bed.prefix + r for bed in BEDS
                   for r in ('tx-udp-64', 'tx-udp-1500')]
        for peer, names, extra in (
                (self.a, tx_rows, WARM),
                (self.b, [bed.prefix + r for bed in BEDS
                          for r in ('bridge-cpu-64', 'switched-64',
                                    'route-nat-64', 'route-nat-64-offload')],
                 None)):
            done = [r for r in names if r in rows and r in self.results]
            if not done:
                continue
            if extra is None:
                # The program's frames all reached B (none lost)
                want = timed_count() * len(done)
            else:
                want = sum(self.results[r].frames + extra for r in done)
            got = peer.wait_counted(want, 10, settle=1)
            if got != want:
                self.notes.append('%s: host peer %s read %d of the %d frames '
                                  'the switch sent it (%s)'
                                  % (self.set, peer.name, got, want,
                                     ', '.join(done)))

    def check_nat(self):
        """route-nat-64's frames reached B masqueraded: from the guest's
        WAN address, none from T's own."""
        with self.b.cond:
            nated = self.b.addrs[(IP_WAN, IP_SERVER)]
            raw = self.b.addrs[(IP_T, IP_SERVER)]
        if raw or not nated:
            raise RuntimeError('route-nat-64: B got %d frames to %s from %s '
                               '(masqueraded) and %d from T\'s %s'
                               % (nated, IP_SERVER, IP_WAN, raw, IP_T))

    def record(self, bed, name, kernel, user, frames, usecs, sent, unc):
        """A row: the window's counts (@unc its uncached accesses), the
        frames its receiving side got of @sent, and the driver's own
        share of the window (DRIVER_OWN, from the window's profile)."""
        insns = kernel + user
        run = prof.Run(self.set, self.tb_counts, self.kallsyms, frames,
                       sent, usecs)
        own = prof.driver_own(run.functions(KSYMS[bed.kernel]),
                              OMAP[bed.kernel])
        self.results[name] = Result(insns, frames, usecs, sent, user, own,
                                    run, unc)
        self.progress('%s: %d instructions, %d of %d frames, %.2f s: %s '
                      'per frame, driver\'s own %s, uncached accesses %s'
                      % (name, insns, frames, sent, usecs / 1e6,
                         fmt(insns / frames) if frames else '-',
                         fmt(sum(own) / frames) if frames else '-',
                         fmt((unc.loads + unc.stores) / frames)
                         if frames else '-'))

    def run_job(self, n, bed, rows, idle):
        """Board @n (BOARD_ROWS[n]) with @rows of it, measuring the idle
        cost if @idle; False if it failed (self.error says why). Its
        notes and QEMU log problems go to self.job_notes[n]."""
        notes, problems = len(self.notes), len(self.problems)
        t0 = time.monotonic()
        try:
            self.run_board(n, bed, rows, idle)
        except Exception as e:
            self.error = '%s: %s' % (type(e).__name__, e)
            self.progress('failed: %s' % self.error)
            traceback.print_exc()
        finally:
            self.close_board()
        self.board_secs.append((n, bed, time.monotonic() - t0,
                                getattr(self, 'boot_secs', 0)))
        self.boot_secs = 0
        self.job_notes[n] = (self.notes[notes:], self.problems[problems:])
        self.progress('%s: board %d took %.1f s' % (
            bed.name, n, self.board_secs[-1][2]))
        return not getattr(self, 'error', None)


def bootargs(bed):
    """@bed's DT's own command line, plus `norandmaps` (see the header)
    and `nosmp` unless BENCH_SMP=1."""
    args = dt_bootargs(bed.dtb, bed.kernel) + ' norandmaps'
    return args if SMP else args + ' nosmp'


def file_id(path):
    """@path (a link: its target) as 'PATH: DATE, sha1 SHA1'."""
    h = hashlib.sha1()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return '%s: %s, sha1 %s' % (
        os.path.relpath(os.path.realpath(path), TOP) if os.path.islink(path)
        else os.path.relpath(path, TOP), time.strftime(
            '%Y-%m-%d %H:%M:%S', time.gmtime(os.path.getmtime(path))),
        h.hexdigest()[:12])


def provenance():
    """What was measured: the commit, the kernel and initramfs used (the
    initramfs holds the driver modules) and QEMU (build/qemu's is a link
    to a build that others may rebuild: see main())."""
    lines = []
    try:
        head = subprocess.run(['git', '-C', TOP, 'log', '-1', '--format=%h'],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(['git', '-C', TOP, 'status', '--porcelain',
                                'kernel', 'qemu'], capture_output=True,
                               text=True).stdout.strip()
        lines.append('git %s%s' % (head, ' (kernel/ or qemu/ modified)'
                                   if dirty else ''))
    except OSError:
        pass
    paths = []
    for bed in BEDS:
        # A bed's initramfs: its first part (bench/build.sh's, made each
        # run, is the rootfs with bench-udp: the rootfs)
        first = bed.initrd()[0]
        for path in (os.path.join(kernel_dir(bed.kernel), 'vmlinux'),
                     initrd_path() if first.startswith(OUT + os.sep)
                     else first):
            if path not in paths:
                paths.append(path)
    for path in paths:
        lines.append(file_id(path))
    lines.append('QEMU ' + file_id(QEMU))
    return lines


def fmt(v):
    return '%.1f' % v if abs(v) < 100 else '%d' % round(v)


def details(bn, prefix):
    """Comment lines of each row of @bn: what it counted."""
    lines = []
    for name in ROWS:
        r = bn.results.get(name)
        if not r:
            continue
        net = (r.insns - bn.idle.get(ROW_BED[name].name, 0) * r.usecs) / \
            r.frames if r.frames else 0
        n = max(r.frames, 1)
        u = r.unc
        lines.append('# %s%s %s: %d frames received of %d sent%s, window '
                     '%.2f s, %d instructions (%d user), %s per frame net '
                     'of idle; driver\'s own: modules %s, kernel work %s '
                     'per frame; uncached: %d loads, %d stores (devices: '
                     '%d loads, %d stores; outside KSEG1 %d), per frame '
                     '%s loads, %s stores (devices %s, %s: %s)'
                     % (prefix, bn.set, name, r.frames, r.sent,
                        ' (LOST %d: not compared)' % (r.sent - r.frames)
                        if r.frames < r.sent else '',
                        r.usecs / 1e6, r.insns, r.user, fmt(net),
                        fmt(r.own[0] / n), fmt(r.own[1] / n),
                        u.loads, u.stores, u.io_loads, u.io_stores,
                        u.mapped, fmt(u.loads / n), fmt(u.stores / n),
                        fmt(u.io_loads / n), fmt(u.io_stores / n),
                        ', '.join('%s %s/%s' % (d, fmt(ld / n), fmt(st / n))
                                  for d, (ld, st) in
                                  sorted(u.devices.items()))))
    return lines


def per_frame(bn, name):
    """(whole path, driver's own) instructions and the uncached accesses
    (loads and stores) per frame of @bn's row @name, or None if it has
    none or lost frames."""
    r = bn.results.get(name)
    if not r or not r.frames or r.frames < r.sent:
        return None
    return (r.insns / r.frames, sum(r.own) / r.frames,
            (r.unc.loads + r.unc.stores) / r.frames)


def table(benches):
    """The result rows: (name, mainline, ours, ratio, and the same of
    the driver's own instructions and of the uncached accesses) as
    strings."""
    rows = []
    for name in ROWS:
        cells, vals = [], []
        for s in SETS:
            r = benches[s].results.get(name)
            v = per_frame(benches[s], name)
            vals.append(v)
            if v:
                cells.append(tuple(fmt(x) for x in v))
            elif r:
                lost = 'lost:%d/%d' % (r.sent - r.frames, r.sent)
                cells.append((lost,) * 3)
            else:
                cells.append(('-',) * 3 if (s, name) in NO_PATH else
                             ('failed',) * 3)
        m, o = vals
        ratio = ['%.2f' % (o[i] / m[i]) if m and o and m[i] else '-'
                 for i in (0, 1, 2)]
        rows.append((name,) + sum(((cells[0][i], cells[1][i], ratio[i])
                                   for i in (0, 1, 2)), ()))
    return rows


def board_jobs():
    """The boards each set runs: (set, n, bed, rows, idle) of BOARD_ROWS[n]
    with the rows the set has a path for (PROFILE=ROW: ROW's board only);
    idle: the set's first board of its bed measures the idle cost. In
    BOARD_ROWS' order, the sets' boards in turn."""
    jobs = []
    for s in SETS:
        beds = set()
        for n, (bed, group) in enumerate(BOARD_ROWS):
            todo = [r for r in group if (s, bed.prefix + r) not in NO_PATH]
            if not todo or (PROFILE and PROFILE not in
                            [bed.prefix + r for r in todo]):
                continue
            jobs.append((s, n, bed, todo,
                         bed.name not in beds and not PROFILE))
            beds.add(bed.name)
    jobs.sort(key=lambda j: (j[1], SETS.index(j[0])))
    return jobs


def run_sets(xdp, tag=''):
    """Every set's boards (board_jobs()), two at once: each lane takes the
    next board when its last one ends, whichever set's (a set with more
    boards, ours with the MT7620A's, would otherwise run on alone); what
    a board measures does not depend on the lane or on what runs beside
    it (CHECK=1). {set: Bench}, with every board's rows. @tag goes into
    the names of their files in build/bench. A set stops at its first
    failed board."""
    jobs = collections.deque(board_jobs())
    lock = threading.Lock()
    lanes = [{s: Bench(s, xdp if s == 'ours' else None, tag) for s in SETS}
             for _ in SETS]
    failed = set()

    def lane(benches):
        while True:
            with lock:
                while jobs and jobs[0][0] in failed:
                    jobs.popleft()
                if not jobs:
                    return
                s, n, bed, rows, idle = jobs.popleft()
            if not benches[s].run_job(n, bed, rows, idle):
                with lock:
                    failed.add(s)
    threads = [threading.Thread(target=lane, args=(b,)) for b in lanes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {s: merge([b[s] for b in lanes]) for s in SETS}


def merge(parts):
    """One set's Bench of its lanes' (@parts): every board's rows, idle
    costs, times, notes and QEMU log problems (in the boards' order)."""
    bn = parts[0]
    for p in parts[1:]:
        bn.results.update(p.results)
        bn.idle.update(p.idle)
        bn.idle_unc.update(p.idle_unc)
        bn.board_secs += p.board_secs
        bn.job_notes.update(p.job_notes)
        if getattr(p, 'error', None) and not getattr(bn, 'error', None):
            bn.error = p.error
    bn.board_secs.sort(key=lambda b: b[0])
    bn.notes = sum((bn.job_notes[n][0] for n in sorted(bn.job_notes)), [])
    bn.problems = sum((bn.job_notes[n][1] for n in sorted(bn.job_notes)),
                      [])
    return bn


def burn():
    """A CPU burner: spin until killed."""
    x = 0
    while True:
        x = (x * 1103515245 + 12345) & 0x7fffffff


def compare(first, second):
    """CHECK=1: each row of each set, whole path, driver's own and
    uncached accesses, in the two runs; lines, and whether every one is
    within CHECK_MAX."""
    lines, ok = [], True
    for name in ROWS:
        for s in SETS:
            if (s, name) in NO_PATH:
                continue
            a, b = per_frame(first[s], name), per_frame(second[s], name)
            if not a or not b:
                lines.append('%s %s: no number in %s run' % (
                    name, s, 'either' if not a and not b else
                    'the idle' if not a else 'the loaded'))
                ok = False
                continue
            for i, what in ((0, 'whole'), (1, 'own'), (2, 'uncached')):
                d = (b[i] - a[i]) / a[i] if a[i] else 0
                good = abs(d) <= CHECK_MAX
                ok &= good
                lines.append('%s %s %s: idle %s loaded %s (%+.2f %%)%s' % (
                    name, s, what, fmt(a[i]), fmt(b[i]), 100 * d,
                    '' if good else ' DIFFERS'))
    return lines, ok


def main():
    global KSYMS, OMAP
    t_start = time.monotonic()
    os.makedirs(OUT, exist_ok=True)
    log('building the plugin, bench-udp and the initrd (bench/build.sh)')
    subprocess.run([os.path.join(TOP, 'bench', 'build.sh')], check=True)
    unknown = set(BOARDS) - {bed.board for bed in ALL_BEDS}
    if unknown:
        log('BENCH_BOARDS: no bench board %s (%s)' % (
            ', '.join(sorted(unknown)),
            ', '.join(bed.board for bed in ALL_BEDS)))
        return 2
    if PROFILE and PROFILE not in ROWS:
        log('PROFILE=%s: not a row (%s)' % (PROFILE, ', '.join(ROWS)))
        return 2
    # Always: the object is in ours' plan archives, whose bytes the run
    # depends on (PROFILE=ROW then runs the table's very board)
    xdp = build_xdp()
    built = provenance()
    for bed in BEDS:
        KSYMS[bed.kernel] = prof.kernel_symbols(prof.system_map(bed.kernel))
        OMAP[bed.kernel] = prof.object_map(bed.kernel)
    log('%d frames a row%s; two boards at once, each lane taking the next '
        'board, either set\'s' % (FRAMES, ' (QUICK)' if QUICK else ''))
    benches = run_sets(xdp)
    check = None
    if CHECK and not PROFILE:
        n = os.cpu_count() or 1
        log('CHECK=1: again, with %d CPU burners on the host' % n)
        burners = [multiprocessing.Process(target=burn, daemon=True)
                   for _ in range(n)]
        for p in burners:
            p.start()
        try:
            loaded = run_sets(xdp, '-loaded')
        finally:
            for p in burners:
                p.kill()
                p.join()
        check = compare(benches, loaded)
    failed = [s for s in SETS if getattr(benches[s], 'error', None)]
    if PROFILE:
        return profile_report(benches, built, failed)

    rows = table(benches)
    lines = ['# make bench%s%s: guest instructions (kernel + user, '
             '%s) per frame received' % (' QUICK=1' if QUICK else '',
                                         ' BENCH_BOARDS=' + ','.join(BOARDS)
                                         if BOARDS else '',
                                         'all 4 CPUs' if SMP else
                                         'one CPU: nosmp'),
             '# row mainline ours ours/mainline, then the same of the '
             'drivers\' own instructions (bench/insn_profile.py '
             'driver_own()), then the same of the uncached accesses '
             '(loads and stores to KSEG1 or to devices) per frame']
    lines += [' '.join(r) for r in rows]
    lines.append('# bridge-cpu-64: tc clsact matchall skip_hw mirred '
                 'redirect swp0 -> swp1 (DSA would offload a bridge of two '
                 'user ports)')
    for s in SETS:
        bn = benches[s]
        lines += details(bn, '')
        if bn.board_secs:
            lines.append('# %s: host seconds a board, its boot and plan / '
                         'QEMU\'s start to its end (TCG, thread=single, '
                         'icount): %s' % (s, ', '.join(
                             '%d %s %.1f/%.1f' % (n, bed.name, boot, secs)
                             for n, bed, secs, boot in bn.board_secs)))
        for bed in BEDS:
            if bed.name in bn.idle:
                lines.append('# %s %s: idle cost %.0f instructions/s and '
                             '%.0f uncached accesses/s, in every window'
                             % (s, bed.name, bn.idle[bed.name] * 1e6,
                                bn.idle_unc[bed.name] * 1e6))
        lines += ['# ' + n for n in bn.notes]
        problems = bn.problems
        if problems:
            lines.append('# %s: QEMU log: %s' % (s, problems[:5]))
            bn.error = getattr(bn, 'error', None) or 'QEMU log: %s' % \
                problems[:5]
            failed.append(s)
        if getattr(bn, 'error', None):
            lines.append('# %s: FAILED: %s' % (s, bn.error))
    if check:
        lines.append('# CHECK=1: the same rows again with %d CPU burners '
                     'on the host, per frame (at most %.1f %% apart): %s'
                     % (os.cpu_count() or 1, 100 * CHECK_MAX,
                        'all within' if check[1] else 'NOT all within'))
        lines += ['# ' + line for line in check[0]]
        for s in SETS:
            lines += details(loaded[s], 'loaded ')
            lines += ['# loaded %s' % n for n in loaded[s].notes]
    lines += ['# ' + line for line in built]
    # A QEMU rebuilt under the run (build/qemu links to a shared build):
    # the boards after it ran another model
    qemu_now = 'QEMU ' + file_id(QEMU)
    if qemu_now not in built:
        lines.append('# QEMU CHANGED DURING THE RUN, the later boards ran '
                     'another build: %s' % qemu_now)
        log('QEMU changed during the run: %s' % qemu_now)
    lines.append('# total %.0f s' % (time.monotonic() - t_start))
    os.makedirs(os.path.dirname(os.path.abspath(RESULTS)), exist_ok=True)
    with open(RESULTS, 'w') as f:
        f.write('\n'.join(lines) + '\n')

    head = ('instructions/frame', 'mainline', 'ours', 'ratio',
            'own/m', 'own/o', 'ratio', 'unc/m', 'unc/o', 'ratio')
    width = max(len(r[0]) for r in rows + [head])
    for r in [head] + rows:
        print('%-*s %10s %10s %6s %8s %8s %6s %8s %8s %6s'
              % ((width,) + tuple(r)))
    if check:
        print('\n'.join(check[0]))
        print('CHECK=1: %s' % ('every row within %.1f %%' % (100 * CHECK_MAX)
                               if check[1] else 'rows differ: see above'))
    print('(%s)' % os.path.relpath(RESULTS))
    return 1 if failed or (check and not check[1]) else 0


def profile_report(benches, built, failed):
    """PROFILE=ROW: the function table, to stdout and
    build/bench-profile-ROW.txt."""
    runs = {}
    for s in SETS:
        bn = benches[s]
        r = bn.results.get(PROFILE)
        if r:
            runs[s] = r.run
    kernel = ROW_BED[PROFILE].kernel
    lines = prof.report(PROFILE, runs, SETS, KSYMS[kernel], kernel)
    lines += ['# ' + line for line in built]
    for s in failed:
        lines.append('# %s: FAILED: %s' % (s, benches[s].error))
    # A board's prefix (mt7628/) is not a directory here
    path = os.path.join(BUILD, 'bench-profile-%s.txt'
                        % PROFILE.replace('/', '-'))
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\n'.join(lines))
    print('(%s)' % os.path.relpath(path))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
