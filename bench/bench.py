#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: guest instructions per packet, mainline's drivers and ours.

Each driver set (mainline: mtk_eth + mt7530-mdio; ours: ralink_fe +
ralink_mt7530) gets one board: the same kernel, the test DT with all five
switch ports (dsa.DTB), `-accel tcg,thread=single -icount shift=0,sleep=off`
and the insn_window plugin (bench/plugin/insn_window.c), which counts
the instructions the vCPUs execute, kernel and user, between two marker
instructions the guest tool bench-udp (bench/guest/bench-udp.c)
executes. Host peers A (port 0, swp0) and B (port 1, swp1) stand on the
wire; what comes in at port 0 comes from the switch model's frame
generator (its "gen" property: copies of one frame taken in at port 0 as
if from the wire, one every 1/RATE s of the guest's clock), so the
frames arrive at the same guest instructions whatever the host does. A
row is

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
- switched-64: swp0 and swp1 in an offloaded br0; the frames to B never
  reach the CPU, so the window holds only what the guest does anyway
  (timers): about 0 per frame.

The RX rows' window opens when the sink has its first frame and closes
with its last (`bench-udp sink`), so it holds the same frames at the
same guest instructions whenever the host started the generator. The
other passive rows (xdp-drop, bridge-cpu, switched) use `bench-udp
hold-us`: a window of exactly FRAMES / RATE s of the guest's clock,
opened LEAD_US after the guest sent a datagram to A; the generator,
armed beforehand, starts when that datagram leaves port 0, so the
window and the frames keep the same phase whenever the host typed the
command; it runs on past the window's end (the bench checks it still
had frames to send) and is then stopped;
none of its frames may be lost over the whole run (the row's counter
against what the generator sent).

Each row also has the drivers' own instructions per frame: their
modules' functions and the kernel work they directly cause (DMA mapping
and syncing with its cache maintenance, the RX ring's pages and skbs,
what TX completion frees through the calls only drivers make, NAPI
scheduling and completion, net DIM), from the per-function profile of
the window; bench/insn_profile.py (DRIVER_NAMES, DRIVER_OBJECTS) says
which functions, and what is not counted (the generic interrupt entry,
GRO and the stack, the skb core shared with the stack).

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
and nothing the guest does waits on real time: the host only types
commands and starts the generator. So the guest exchanges nothing with
the host peers in real time: it knows A's address from a permanent
neighbour entry (no ARP, whose retries would run out in no real time),
and A and B only count. With the guest's clock in real time while it
sleeps (sleep=on), a busy host delayed the wake-ups between frames and
the rows moved by up to 50 % between an idle and a loaded host.

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

PROFILE=ROW (e.g. PROFILE=rx-udp-64): run only that row, on both boards,
with the plugin's per-TB counters (profile=PATH), and print the kernel
functions by instructions per frame, mainline and ours side by side, and
the totals per group, to stdout and build/bench-profile-ROW.txt (not to
the results file). See bench/insn_profile.py.
"""

import base64
import collections
import hashlib
import multiprocessing
import os
import re
import struct
import subprocess
import sys
import threading
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
sys.path.insert(0, os.path.join(TOP, 'tests', 'lib'))
from board import (BUILD, Board, dt_bootargs, initrd_path,  # noqa: E402
                   kernel_dir)
import dsa  # noqa: E402
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
ROWS = ['rx-udp-64', 'rx-udp-1500', 'tx-udp-64', 'tx-udp-1500',
        'bridge-cpu-64', 'switched-64', 'xdp-drop-64']
# The rows of each board: a row that follows others on one board starts
# from the interrupt moderation (DIM) state they left, and DIM's walk
# depends on how long the guest idled between them, which the host
# decides; rows that need it get a board whose DIM state only their own
# traffic set (the RX and TX rows are the first to use their direction).
# QUICK=1 (make test's bench suite, which checks that the bench works,
# not its numbers) keeps to one board a set.
BOARD_ROWS = [['rx-udp-64', 'rx-udp-1500', 'tx-udp-64', 'tx-udp-1500',
               'switched-64'], ['bridge-cpu-64'], ['xdp-drop-64']]
if QUICK:
    BOARD_ROWS = [sum(BOARD_ROWS, [])]
# Rows a driver set has no path for.
NO_PATH = {('mainline', 'xdp-drop-64')}

IP_SWP0 = '192.0.2.1'
MAC_A = bytes.fromhex('020000000a0a')
MAC_B = bytes.fromhex('020000000b0b')
IP_A = '192.0.2.10'
IP_B = '192.0.2.11'
PORT_RX, PORT_TX, PORT_FWD, PORT_TRIGGER = 9000, 9002, 9001, 9003

# Frames a second of the guest's clock the switch model's generator
# takes in at port 0 (the rows other than TX): the same offered load for
# both sets, below what either takes, so that no frame is lost (the cost
# per frame depends on the rate, through NAPI batching and interrupt
# moderation).
RATE = {64: 8000, 1500: 5000}
# A window of fixed length (bench-udp hold-us) opens LEAD_US after the
# guest sent the datagram that starts the armed generator (to A: it
# leaves port 0); the generator has frames for the window and
# GEN_SPARE_S more, and is stopped once the window closed.
LEAD_US = 500000 if QUICK else 2000000
# Passive rows: guest seconds between their configuration and the
# window, so that what it set off is over (netlink notifications read
# every port's stats, which keeps ours' stats work busy for a while).
# Free under sleep=off: the guest's clock jumps over it.
SETTLE_S = 10
# TX rows: frames sent before the window opens, so that interrupt
# moderation (DIM) has settled on the traffic whatever came before
WARM = 5000
GEN_SPARE_S = 30
IDLE_MS = 300


# A row of one set: the window's instructions (kernel + user), the frames
# the receiving side got of those sent, the window's length, the user
# instructions in it, the driver's own instructions (modules, kernel
# work: prof.driver_own()) and the window's profile (prof.Run).
Result = collections.namedtuple('Result', 'insns frames usecs sent user '
                                'own run')
# Built-in kernel symbols and their object files, for prof.driver_own()
KSYMS = []
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
        super().__init__(name, mac, ip)

    def count(self, dport):
        with self.cond:
            self.dport, self.counted = dport, 0

    def received(self, frame):
        if self.dport is not None and udp_dport(frame) == self.dport:
            self.counted += 1
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


class Bench:
    """One board with one driver set, its peers and its windows."""

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

    def start_board(self, n):
        """Boot board @n of this set (BOARD_ROWS[n])."""
        stem = '%s%s-%d' % (self.set, self.tag, n)
        self.windows = os.path.join(OUT, 'windows-%s.txt' % stem)
        self.profile = os.path.join(OUT, 'profile-%s.txt' % stem)
        self.console = open(os.path.join(OUT, 'console-%s.log' % stem),
                            'wb')
        plugin = '%s,out=%s,profile=%s' % (
            os.path.join(OUT, 'libinsn_window.so'), self.windows,
            self.profile)
        extra = ['-initrd', initrd_path(OUT, 'initrd', 'bench/build.sh'),
                 '-accel', 'tcg,thread=single', '-icount',
                 'shift=0,sleep=off',
                 '-plugin', plugin]
        self.board = Board('gnubee-pc1', dtb=dsa.DTB, initrd=False,
                           append=bootargs(), extra=extra +
                           self.a.netdev('pa') + self.b.netdev('pb'),
                           log=self.console)
        self.nwin = 0

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
        """The counts of the window just closed: (kernel, user)."""
        deadline = time.monotonic() + 10
        while True:
            with open(self.windows) as f:
                lines = f.read().splitlines()
            if len(lines) > self.nwin:
                break
            if time.monotonic() > deadline:
                raise RuntimeError('the plugin wrote no window %d'
                                   % self.nwin)
            time.sleep(0.05)
        m = re.match(r'window (\d+) kernel (\d+) user (\d+)$',
                     lines[self.nwin])
        if not m or int(m.group(1)) != self.nwin:
            raise RuntimeError('unexpected window line %r' % lines[self.nwin])
        self.nwin += 1
        self.tb_counts = self.profile_window(self.nwin - 1)
        return int(m.group(2)), int(m.group(3))

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
        with open(os.path.join(OUT, 'kallsyms-%s.txt' % self.set),
                  'w') as f:
            f.write(out)
        self.progress('%d module and check symbols from /proc/kallsyms'
                      % len(self.kallsyms))

    def timed(self, frame, n, rate, length_us=None):
        """A window of @n frames' time at @rate (or @length_us) of the
        guest's clock, with the generator's @frame at @rate all through
        it (none if @frame is None); return (kernel, user, usecs, what
        the generator sent in all)."""
        b = self.board
        period = round(1e9 / rate) if frame else 0
        if length_us is None:
            length_us = n * period // 1000
        sent = 0
        trigger = ''
        if frame:
            out = b.hmp('qom-set %s gen arm 0 %d %d %s' % (
                dsa.SWITCH_QOM, n + GEN_SPARE_S * rate, period,
                frame.hex()))
            if out:
                raise RuntimeError('the frame generator refused: %s' % out)
            trigger = ' %s %d' % (IP_A, PORT_TRIGGER)
        start = b.mark()
        b.write('bench-udp hold-us %d %d%s\n' % (LEAD_US, length_us,
                                                 trigger))
        m = b.wait_for(r'window closed after (\d+) us', 600, start)
        if frame:
            state = b.hmp('qom-get %s gen' % dsa.SWITCH_QOM)
            if not state.endswith('"') or state.endswith(' left 0"') or \
                    state.endswith(' armed"'):
                raise RuntimeError('the generator ran out before the '
                                   'window closed: %r' % state)
            b.hmp('qom-set %s gen stop' % dsa.SWITCH_QOM)
            state = b.hmp('qom-get %s gen' % dsa.SWITCH_QOM)
            g = re.search(r'sent (\d+) held (\d+) dropped (\d+) left '
                          r'(\d+)', state)
            if not g:
                raise RuntimeError('qom-get gen: %r' % state)
            sent = int(g.group(1))
            if int(g.group(2)) or int(g.group(3)):
                self.notes.append('%s: generator held %s, dropped %s'
                                  % (self.set, g.group(2), g.group(3)))
        b.run('true')
        k, u = self.window()
        return k, u, int(m.group(1)), sent

    def background(self, cmd, ready, timeout):
        """Start @cmd in the guest shell; wait for @ready in its output;
        return a thread whose .out is (status, output) once it ended."""
        b = self.board
        start = b.mark()
        t = threading.Thread(target=lambda: setattr(
            t, 'out', b.run(cmd, timeout)), daemon=True)
        t.out = None
        t.start()
        b.wait_for(ready, 60, start)
        return t

    # -- setup -----------------------------------------------------------
    def boot(self):
        self.boot_secs = self.board.wait_ready()
        self.progress('shell after %.1f s' % self.boot_secs)
        b = self.board
        b.check('%s %s swp0 swp1' % (dsa.LOAD, self.set), timeout=120)
        b.check('ip addr add %s/24 dev swp0 && ip link set swp0 up && '
                'ip link set swp1 up' % IP_SWP0)
        b.check('(for i in $(seq 100); do ip link show swp0 | grep -q '
                'LOWER_UP && ip link show swp1 | grep -q LOWER_UP && exit 0;'
                ' sleep 0.1; done; ip link; exit 1)', timeout=60)
        self.mac = bytes.fromhex(b.check(
            'cat /sys/class/net/swp0/address').strip().replace(':', ''))
        if self.xdp:
            data = base64.b64encode(open(self.xdp, 'rb').read()).decode()
            b.check('echo %s | base64 -d > /tmp/xdp.o' % data)
        # The guest knows A (TX rows) without asking (see the header);
        # A knows nothing: frames to the guest carry swp0's MAC.
        b.check('ip neigh replace %s lladdr %s dev swp0 nud permanent'
                % (IP_A, ':'.join('%02x' % x for x in MAC_A)))
        # Idle: what an empty window costs a second (timers), on the
        # first board
        if getattr(self, 'idle', None) is not None:
            return
        rates = []
        for _ in range(2):
            k, u, us, _ = self.timed(None, 0, 0, 1000000)
            rates.append((k + u) / us)
        self.idle = min(rates)
        self.progress('idle: %.0f instructions/s (%s)' % (
            self.idle * 1e6, ', '.join('%.0f' % (r * 1e6) for r in rates)))

    # -- traffic ---------------------------------------------------------
    def generate(self, frame, n, rate):
        """@n copies of @frame in at switch port 0 (A's port), one every
        1/@rate s of the guest's clock, from the switch model's frame
        generator; wait until it took them all; return (sent, held,
        dropped)."""
        b = self.board
        out = b.hmp('qom-set %s gen 0 %d %d %s' % (
            dsa.SWITCH_QOM, n, round(1e9 / rate), frame.hex()))
        if out:
            raise RuntimeError('the frame generator refused: %s' % out)
        deadline = time.monotonic() + 120 + 50 * n / rate
        while True:
            state = b.hmp('qom-get %s gen' % dsa.SWITCH_QOM)
            m = re.search(r'sent (\d+) held (\d+) dropped (\d+) left (\d+)',
                          state)
            if not m:
                raise RuntimeError('qom-get gen: %r' % state)
            if m.group(4) == '0':
                break
            if time.monotonic() > deadline:
                b.hmp('qom-set %s gen stop' % dsa.SWITCH_QOM)
                raise RuntimeError('the frame generator still has %s frames '
                                   'to send' % m.group(4))
            time.sleep(0.05)
        sent, held, dropped = (int(m.group(i)) for i in (1, 2, 3))
        if held:
            self.notes.append('%s: %d times the CPU port could not take a '
                              'frame yet (the generator\'s pace slipped)'
                              % (self.set, held))
        return sent, held, dropped

    def mib(self, dev, key='TxUnicast'):
        """Switch MIB counter @key of user port @dev."""
        return dsa.ethtool_stats(self.board, dev).get(key, 0)

    # -- rows ------------------------------------------------------------
    def row_rx(self, size):
        name = 'rx-udp-%d' % size
        frame = udp_frame(self.mac, MAC_A, IP_A, IP_SWP0, PORT_RX, size)
        t = self.background('bench-udp sink %d %d %d' % (
            PORT_RX, FRAMES, IDLE_MS), r'listening\r?\n', 3600)
        sent, _, _ = self.generate(frame, FRAMES, RATE[size])
        t.join(3600)
        status, out = t.out
        m = re.search(r'received (\d+) in (\d+) us', out)
        if status or not m:
            raise RuntimeError('%s: sink failed (%d): %s' % (name, status,
                                                              out))
        k, u = self.window()
        # The window opens on the first frame: the rest are in it
        self.record(name, k, u, int(m.group(1)), int(m.group(2)), sent - 1)

    def row_tx(self, size):
        name = 'tx-udp-%d' % size
        self.a.count(PORT_TX)
        mib0 = self.mib('swp0')
        out = self.board.check('bench-udp source %s %d %d %d %d' % (
            IP_A, PORT_TX, size - 42, FRAMES, WARM), timeout=3600)
        m = re.search(r'sent (\d+) in (\d+) us', out)
        if not m:
            raise RuntimeError('%s: source: %s' % (name, out))
        k, u = self.window()
        sent = int(m.group(1))
        mib0 += WARM
        # What left port 0 (the switch's MIB), not what the host peer
        # read: a busy host drops datagrams in its socket's buffer.
        left = self.mib('swp0') - mib0
        got = self.a.wait_counted(sent + WARM, 10, settle=1) - WARM
        self.a.count(None)
        if got != left:
            self.notes.append('%s %s: host peer A read %d of the %d frames '
                              'port 0 sent' % (self.set, name, got, left))
        self.record(name, k, u, left, int(m.group(2)), sent)

    def row_xdp(self):
        name = 'xdp-drop-64'
        b = self.board
        frame = udp_frame(self.mac, MAC_A, IP_A, IP_SWP0, PORT_RX, 64)
        b.check('ip link set dev eth0 xdpdrv obj /tmp/xdp.o sec xdp_drop')
        before = eth_stat(b, 'xdp_drop')
        b.check('sleep %d' % SETTLE_S)
        k, u, us, sent = self.timed(frame, FRAMES, RATE[64])
        time.sleep(0.2)
        dropped = eth_stat(b, 'xdp_drop') - before
        b.check('ip link set dev eth0 xdpdrv off')
        self.record(name, k, u, FRAMES - max(0, sent - dropped), us, FRAMES)

    def forwarded(self, name, frame):
        """Run @frame FRAMES times from A at port 0 towards B at port 1
        in a window; record the row (frames: what left port 1)."""
        mib0 = self.mib('swp1')
        self.b.count(PORT_FWD)
        k, u, us, sent = self.timed(frame, FRAMES, RATE[64])
        got = self.b.wait_counted(sent, 10, settle=1)
        left = self.mib('swp1') - mib0
        self.b.count(None)
        if got != left:
            self.notes.append('%s %s: host peer B read %d of the %d frames '
                              'port 1 sent' % (self.set, name, got, left))
        # The window holds FRAMES of them; none may be lost in all
        self.record(name, k, u, FRAMES - max(0, sent - left), us, FRAMES)

    def row_bridge_cpu(self):
        name = 'bridge-cpu-64'
        b = self.board
        for dev, to in (('swp0', 'swp1'), ('swp1', 'swp0')):
            b.check('ip link set %s promisc on && tc qdisc add dev %s '
                    'clsact && tc filter add dev %s ingress matchall '
                    'skip_hw action mirred egress redirect dev %s'
                    % (dev, dev, dev, to))
        # No frame before the row's own: the first a board forwards
        # starts DIM's first measurement, which would then span the host's
        # delays. The row's count shows whether frames get through.
        frame = udp_frame(MAC_B, MAC_A, IP_A, IP_B, PORT_FWD, 64)
        b.check('sleep %d' % SETTLE_S)
        self.forwarded(name, frame)
        for dev in ('swp0', 'swp1'):
            b.check('tc qdisc del dev %s clsact && ip link set %s promisc '
                    'off' % (dev, dev))

    def row_switched(self):
        name = 'switched-64'
        b = self.board
        b.check('ip link add br0 type bridge && ip link set swp0 master br0'
                ' && ip link set swp1 master br0 && ip link set br0 up')
        b.check('(for i in $(seq 100); do bridge link show | grep -c "state '
                'forwarding" | grep -qx 2 && exit 0; sleep 0.1; done; '
                'bridge link show; exit 1)', timeout=60)
        # Both MACs learned: A's frames to B go to port 1 only.
        frame = udp_frame(MAC_B, MAC_A, IP_A, IP_B, PORT_FWD, 64)
        self.a.count(PORT_FWD)
        self.b.count(PORT_FWD)
        self.b.send(udp_frame(MAC_A, MAC_B, IP_B, IP_A, PORT_FWD, 64))
        self.a.wait_counted(1, 10)
        self.a.send(frame)
        if self.b.wait_counted(1, 10) < 1:
            raise RuntimeError('%s: nothing switched' % name)
        self.a.count(None)
        b.check('sleep %d' % SETTLE_S)
        self.forwarded(name, frame)
        b.check('ip link del br0')

    def record(self, name, kernel, user, frames, usecs, sent):
        """A row: the window's counts, the frames its receiving side got
        of @sent, and the driver's own share of the window (DRIVER_OWN,
        from the window's profile)."""
        insns = kernel + user
        run = prof.Run(self.set, self.tb_counts, self.kallsyms, frames,
                       sent, usecs)
        own = prof.driver_own(run.functions(KSYMS), OMAP)
        self.results[name] = Result(insns, frames, usecs, sent, user, own,
                                    run)
        self.progress('%s: %d instructions, %d of %d frames, %.2f s: %s '
                      'per frame, driver\'s own %s'
                      % (name, insns, frames, sent, usecs / 1e6,
                         fmt(insns / frames) if frames else '-',
                         fmt(sum(own) / frames) if frames else '-'))

    def run(self):
        rows = {'rx-udp-64': lambda: self.row_rx(64),
                'rx-udp-1500': lambda: self.row_rx(1500),
                'tx-udp-64': lambda: self.row_tx(64),
                'tx-udp-1500': lambda: self.row_tx(1500),
                'xdp-drop-64': self.row_xdp,
                'bridge-cpu-64': self.row_bridge_cpu,
                'switched-64': self.row_switched}
        try:
            for n, group in enumerate(BOARD_ROWS):
                todo = [r for r in group if (self.set, r) not in NO_PATH
                        and (not PROFILE or r == PROFILE)]
                if not todo:
                    continue
                self.start_board(n)
                self.boot()
                self.read_kallsyms()
                for name in todo:
                    rows[name]()
                _, dmesg = self.board.run('dmesg | grep -E "Oops|BUG:|'
                                          'WARNING:" | head -n 5')
                if dmesg.strip():
                    self.notes.append('%s: dmesg: %s' % (self.set,
                                                         dmesg.strip()))
                self.close_board()
        except Exception as e:
            self.error = '%s: %s' % (type(e).__name__, e)
            self.progress('failed: %s' % self.error)
            raise
        finally:
            self.close_board()


def bootargs():
    """The test DT's own command line, plus `nosmp` unless BENCH_SMP=1."""
    args = dt_bootargs(dsa.DTB)
    return args if SMP else args + ' nosmp'


def eth_stat(b, key):
    out = b.check('ethtool -S eth0')
    m = re.search(r'^\s*%s: (\d+)$' % re.escape(key), out, re.M)
    if not m:
        raise RuntimeError('no %s in ethtool -S eth0' % key)
    return int(m.group(1))


def provenance():
    """What was measured: the commit, and the kernel and initramfs used
    (the initramfs holds the driver modules)."""
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
    for path in (os.path.join(kernel_dir('main'), 'vmlinux'), initrd_path()):
        h = hashlib.sha1()
        with open(path, 'rb') as f:
            for block in iter(lambda: f.read(1 << 20), b''):
                h.update(block)
        lines.append('%s: %s, sha1 %s' % (
            os.path.relpath(path, TOP), time.strftime(
                '%Y-%m-%d %H:%M:%S', time.gmtime(os.path.getmtime(path))),
            h.hexdigest()[:12]))
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
        net = (r.insns - getattr(bn, 'idle', 0) * r.usecs) / r.frames \
            if r.frames else 0
        lines.append('# %s%s %s: %d frames received of %d sent%s, window '
                     '%.2f s, %d instructions (%d user), %s per frame net '
                     'of idle; driver\'s own: modules %s, kernel work %s '
                     'per frame'
                     % (prefix, bn.set, name, r.frames, r.sent,
                        ' (LOST %d: not compared)' % (r.sent - r.frames)
                        if r.frames < r.sent else '',
                        r.usecs / 1e6, r.insns, r.user, fmt(net),
                        fmt(r.own[0] / max(r.frames, 1)),
                        fmt(r.own[1] / max(r.frames, 1))))
    return lines


def per_frame(bn, name):
    """(whole path, driver's own) instructions per frame of @bn's row
    @name, or None if it has none; None for both if it lost frames."""
    r = bn.results.get(name)
    if not r or not r.frames or r.frames < r.sent:
        return None
    return r.insns / r.frames, sum(r.own) / r.frames


def table(benches):
    """The result rows: (name, mainline, ours, ratio, and the same of
    the driver's own instructions) as strings."""
    rows = []
    for name in ROWS:
        cells, vals = [], []
        for s in SETS:
            r = benches[s].results.get(name)
            v = per_frame(benches[s], name)
            vals.append(v)
            if v:
                cells.append((fmt(v[0]), fmt(v[1])))
            elif r:
                lost = 'lost:%d/%d' % (r.sent - r.frames, r.sent)
                cells.append((lost, lost))
            else:
                cells.append(('-',) * 2 if (s, name) in NO_PATH else
                             ('failed',) * 2)
        m, o = vals
        ratio = ['%.2f' % (o[i] / m[i]) if m and o and m[i] else '-'
                 for i in (0, 1)]
        rows.append((name, cells[0][0], cells[1][0], ratio[0],
                     cells[0][1], cells[1][1], ratio[1]))
    return rows


def run_sets(xdp, tag=''):
    """Both driver sets, one board each, at once; {set: Bench}. @tag
    goes into the names of their files in build/bench."""
    benches = {s: Bench(s, xdp if s == 'ours' else None, tag)
               for s in SETS}
    threads = {s: threading.Thread(target=benches[s].run) for s in SETS}
    for t in threads.values():
        t.start()
    for t in threads.values():
        t.join()
    return benches


def burn():
    """A CPU burner: spin until killed."""
    x = 0
    while True:
        x = (x * 1103515245 + 12345) & 0x7fffffff


def compare(first, second):
    """CHECK=1: each row of each set, whole path and driver's own, in the
    two runs; lines, and whether every one is within CHECK_MAX."""
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
            for i, what in ((0, 'whole'), (1, 'own')):
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
    if PROFILE and PROFILE not in ROWS:
        log('PROFILE=%s: not a row (%s)' % (PROFILE, ', '.join(ROWS)))
        return 2
    xdp = build_xdp() if not PROFILE or PROFILE == 'xdp-drop-64' else None
    built = provenance()
    KSYMS = prof.kernel_symbols()
    OMAP = prof.object_map()
    log('%d frames a row%s; mainline and ours on two boards at once'
        % (FRAMES, ' (QUICK)' if QUICK else ''))
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
    lines = ['# make bench%s: guest instructions (kernel + user, '
             '%s) per frame received' % (' QUICK=1' if QUICK else '',
                                         'all 4 CPUs' if SMP else
                                         'one CPU: nosmp'),
             '# row mainline ours ours/mainline, then the same of the '
             'drivers\' own instructions (bench/insn_profile.py '
             'driver_own())']
    lines += [' '.join(r) for r in rows]
    lines.append('# bridge-cpu-64: tc clsact matchall skip_hw mirred '
                 'redirect swp0 -> swp1 (DSA would offload a bridge of two '
                 'user ports)')
    for s in SETS:
        bn = benches[s]
        lines += details(bn, '')
        if getattr(bn, 'boot_secs', None):
            lines.append('# %s: boot to shell %.1f s (TCG, thread=single, '
                         'icount)' % (s, bn.boot_secs))
        if getattr(bn, 'idle', None):
            lines.append('# %s: idle cost %.0f instructions/s, in every '
                         'window' % (s, bn.idle * 1e6))
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
    lines.append('# total %.0f s' % (time.monotonic() - t_start))
    os.makedirs(os.path.dirname(os.path.abspath(RESULTS)), exist_ok=True)
    with open(RESULTS, 'w') as f:
        f.write('\n'.join(lines) + '\n')

    head = ('instructions/frame', 'mainline', 'ours', 'ratio',
            'own/m', 'own/o', 'ratio')
    width = max(len(r[0]) for r in rows + [head])
    for r in [head] + rows:
        print('%-*s %10s %10s %6s %8s %8s %6s' % ((width,) + tuple(r)))
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
    lines = prof.report(PROFILE, runs, SETS, KSYMS)
    lines += ['# ' + line for line in built]
    for s in failed:
        lines.append('# %s: FAILED: %s' % (s, benches[s].error))
    path = os.path.join(BUILD, 'bench-profile-%s.txt' % PROFILE)
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\n'.join(lines))
    print('(%s)' % os.path.relpath(path))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
