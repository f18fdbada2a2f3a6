#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qdma: the MT7621 QDMA's TX queues and the switch ports' link rates.

The GB-PC1 on the virtual clock (-icount), one CPU; switch ports 0 and 1
(swp0, swp1) each on a QEMU hub of its own (carrier, and a wire that
takes whatever comes). swp0 is forced to 100 Mbit (`ethtool -s swp0
speed 100 duplex full autoneg off`), swp1 stays at 1 Gbit. The guest
sends frames of FRAME bytes to both at once (a mausezahn on each), and
the rates are what left each port (the switch's MIB TxUnicast) per
second of the guest's (virtual) clock, over WINDOW seconds. The model:
each front port drains at its link's speed from a 128 KiB buffer, and
pauses the frame engine's GMAC (802.3x) while frames from the CPU fill
it past 64 KiB; the QDMA's queues have the rates QTX_SCH gives them.

With each driver set (mainline's `mtk_eth_soc` puts each DSA port's
frames on QDMA queue port + 3 and, on swp0's link change to 100 Mbit,
gives that queue a max rate of 103 Mbit/s; ours, `ralink_fe`'s
fe_select_queue() and fe_netdev_event(), does the same):
- swp0's queue has that max rate (QTX_SCH of queue 3 read back);
- positive: swp0 runs at its link's rate (at least 90 % of 100 Mbit's
  frames a second), swp1 at more than twice swp0's rate: the slow port
  does not drag the fast one down;
- positive: swp0's buffer drops nothing (MIB TxDrop): what the guest
  hands the slow port is not lost beyond what its link drops;
- negative (counted apart): every frame on one QDMA queue (a tc clsact
  egress filter on eth0, `skbedit queue_mapping 0`, which has no max
  rate): swp0's buffer fills, its pause stops the GMAC, and swp1 is
  dragged down to at most 4/5 of its rate with per-port queues
  (head-of-line blocking: the difference the queues make; here about
  2/3, 21-24,000 frames a second against 32-33,000);
- a TBF of TBF_RATE Mbit/s on swp1's TX queue of eth0 (mq's class 1:5)
  holds swp1 alone within 5 % of that rate (frames with the MTK tag and
  the FCS); with ours the TBF is offloaded, QTX_SCH of queue 4 has its
  rate, and (negative) a TBF at eth0's root is not offloaded; mainline
  has no TBF offload (software shaping only: a comment);
- a TBF of TBF_RATE Mbit/s at swp1's root, and frames the switch
  forwards to swp1 (the guest sends them out of swp3, wired to swp2 by a
  hub; swp1 and swp2 bridged, the destination a static FDB entry on
  swp1): ours offloads the TBF to the MT7530's egress rate limit of the
  port (ERLCR), which holds them within 5 % of the rate (untagged, with
  the FCS), and tc shows it "offloaded"; negative: without the TBF
  (before it, after its removal) they run at more than twice its rate,
  and with mainline (no port_setup_tc in mt7530) with it too.

Broken once: the model's QDMA with its max rates ignored (fe_qdma_ready()
skipping the max-rate test): mainline's positive rate check fails ("swp0
at 12347 frames/s (100 Mbit: 12207), swp1 at 8499": the unshaped queue
fills swp0's buffer and the pause holds everything), and the negative
with it (its reference is that rate); the negative with a `matchall
action pass` filter instead of the skbedit one (per-port queues kept):
it fails ("swp1 at 29742 (32516 with per-port queues)"); the frame
engine ignoring the switch's pause (fe_qdma_ready()): the drop check
fails ("TxDrop +712": queue 3's 103 Mbit/s outruns the 100 Mbit link
and its buffer), and the negative with it (swp0 drops instead of
blocking); ours' fe_setup_tc() refusing TBF: the offload check fails
("QTX_SCH(4) = 0x78140000") while the rate check holds (TBF still
shapes in software); ours' ralink_mt7530 without the egress rate limit
(has_erlcr false on the MT7621): the port TBF's rate check fails ("swp1
at 44531 frames/s from swp2 ... 50 Mbit/s is 6225") and so does its
"offloaded" one; ours' fe_netdev_event() not setting the queue's
speed: the QTX_SCH read-back fails (and the rate checks with it, swp0's
queue unshaped); ours' fe_setup_tc() taking a root TBF (as queue 4's):
the root-TBF negative fails.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board  # noqa: E402
from board import dt_bootargs  # noqa: E402
import dsa  # noqa: E402
from tap import Suite  # noqa: E402

SETS = os.environ.get('QDMA_SETS', 'mainline ours').split()
SLOW, FAST = 'swp0', 'swp1'
FRAME = 1000            # bytes, without FCS
WINDOW = 2              # seconds of the guest's clock
# A 100 Mbit link's frames a second at FRAME bytes (FCS, preamble, IFG)
LINE_100 = 100e6 / ((FRAME + 4 + 8 + 12) * 8)
# QDMA_QTX_CFG + queue * 0x10 + 4: the QTX_SCH of swp0's queue (0 + 3)
QTX_SCH = 0x1e100000 + 0x1800 + 3 * 0x10 + 4
MAX_RATE_EN = 1 << 11
# swp1's queue (1 + 3) and its QTX_SCH; the TBF's rate (Mbit/s)
FAST_QUEUE = 4
QTX_SCH_FAST = 0x1e100000 + 0x1800 + FAST_QUEUE * 0x10 + 4
TBF_RATE = 50


# swp2 and swp3 on one hub, a wire between them: what the CPU sends out
# of swp3 enters swp2, and the switch forwards it to swp1 (a bridge of
# swp1 and swp2, FWD_DST a static FDB entry on swp1) without the CPU
IN, OUT = 'swp2', 'swp3'
FWD_DST = '02:00:00:00:0b:01'


def board_args():
    args = []
    for port, hub in ((0, 20), (1, 21), (2, 22), (3, 22)):
        args += ['-netdev', 'hubport,id=q%d,hubid=%d' % (port, hub),
                 '-net', 'nic,netdev=q%d,model=%s' % (port, dsa.MT7621.nic)]
    return args


def counters(b):
    """(guest uptime, {dev: (TxUnicast, TxDrop)}) in one command."""
    out = b.check('cat /proc/uptime; for d in %s %s; do echo "dev $d"; '
                  'ethtool -S $d | grep -E "^ *Tx(Unicast|Drop):"; done'
                  % (SLOW, FAST))
    t = float(out.split()[0])
    got = {}
    for dev, body in re.findall(r'^dev (\S+)\n((?:\s+Tx\S+: \d+\n?)*)', out,
                                re.M):
        c = dict(re.findall(r'(Tx\S+): (\d+)', body))
        got[dev] = (int(c.get('TxUnicast', 0)), int(c.get('TxDrop', 0)))
    return t, got


def measure(b, devs=(SLOW, FAST), senders=None):
    """The guest sending out of @senders ((dev, destination MAC) each; by
    default each of @devs to an address of its own) at once: {dev of @devs:
    (frames a second, frames dropped)}."""
    pids = []
    senders = senders or [(dev, '02:00:00:00:0a:0%d' % (i + 1))
                          for i, dev in enumerate(devs)]
    for i, (dev, dst) in enumerate(senders):
        pids.append(b.check(
            'mausezahn %s -q -c 0 -d 0 -a 02:00:00:00:00:0%d '
            '-b %s -p %d >/dev/null 2>&1 & echo $!'
            % (dev, i + 1, dst, FRAME - 14)).strip())
    b.check('sleep 0.5')
    t0, c0 = counters(b)
    b.check('sleep %d' % WINDOW)
    t1, c1 = counters(b)
    b.check('kill %s; sleep 0.5' % ' '.join(pids))
    return {d: ((c1[d][0] - c0[d][0]) / (t1 - t0), c1[d][1] - c0[d][1])
            for d in devs}


def tbf(suite, b, name):
    """A tc TBF of TBF_RATE on swp1's TX queue of eth0 (under mq): swp1
    alone runs at that rate; ours offloads it to the queue's max rate,
    and a TBF at eth0's root is not offloaded."""
    sch0 = int(b.check('devmem %#x 32' % QTX_SCH_FAST), 16)
    b.check('tc qdisc replace dev eth0 root tbf rate %dmbit burst 32k '
            'latency 50ms' % TBF_RATE)
    sch_root = int(b.check('devmem %#x 32' % QTX_SCH_FAST), 16)
    b.check('tc qdisc replace dev eth0 root handle 1: mq && tc qdisc '
            'replace dev eth0 parent 1:%d tbf rate %dmbit burst 32k latency '
            '50ms' % (FAST_QUEUE + 1, TBF_RATE))
    sch = int(b.check('devmem %#x 32' % QTX_SCH_FAST), 16)
    rate = measure(b, (FAST,))[FAST][0]
    b.check('tc qdisc del dev eth0 root')
    want = TBF_RATE * 1e6 / ((FRAME + 4 + 4) * 8)   # the tag and the FCS
    suite.comment('%s: TBF %d Mbit/s: %s at %.0f frames/s (%.0f expected)'
                  % (name, TBF_RATE, FAST, rate, want))
    suite.result(abs(rate / want - 1) < 0.05,
                 '%s: a TBF of %d Mbit/s on %s\'s TX queue of eth0 holds '
                 'it within 5 %%' % (name, TBF_RATE, FAST),
                 '%s at %.0f frames/s, %d Mbit/s is %.0f' % (
                     FAST, rate, TBF_RATE, want))
    if name != 'ours':
        suite.comment('%s: the TBF is software only (no ndo_setup_tc): '
                      'QTX_SCH(%d) %#x with it, %#x before' % (
                          name, FAST_QUEUE, sch, sch0))
        return
    suite.result((sch & 0xfff) == (MAX_RATE_EN | TBF_RATE << 4 | 3),
                 '%s: the TBF is offloaded, QDMA queue %d\'s max rate '
                 '(%d * 10^3 kbit/s)' % (name, FAST_QUEUE, TBF_RATE),
                 'QTX_SCH(%d) = %#x' % (FAST_QUEUE, sch))
    suite.result(sch_root == sch0,
                 '%s: negative: a TBF at eth0\'s root is not offloaded '
                 '(no queue of its own)' % name,
                 'QTX_SCH(%d) %#x with it, %#x before' % (
                     FAST_QUEUE, sch_root, sch0))


def port_tbf(suite, b, name):
    """A tc TBF of TBF_RATE at swp1's root, and the frames the switch
    forwards to swp1 (from swp2): ours offloads the TBF to the port's
    egress rate limit, which holds them to its rate; mainline's mt7530
    has no port_setup_tc, and the TBF shapes only what the CPU sends."""
    b.check('ip link set %s up && ip link set %s up' % (IN, OUT))
    if not dsa.carrier(b, [IN, OUT]):
        raise RuntimeError('no carrier on %s, %s' % (IN, OUT))
    b.check('ip link add br0 type bridge && ip link set %s master br0 && '
            'ip link set %s master br0 && ip link set br0 up && bridge fdb '
            'add %s dev %s master static' % (FAST, IN, FWD_DST, FAST))
    b.check('sleep 1')

    def forwarded():
        r = measure(b, (FAST,), [(OUT, FWD_DST)])
        return r[FAST][0]

    free = forwarded()
    b.check('tc qdisc replace dev %s root tbf rate %dmbit burst 32k '
            'latency 50ms' % (FAST, TBF_RATE))
    shown = b.check('tc qdisc show dev %s root' % FAST).strip()
    rate = forwarded()
    b.check('tc qdisc del dev %s root' % FAST)
    after = forwarded()
    want = TBF_RATE * 1e6 / ((FRAME + 4) * 8)   # untagged, with the FCS
    what = ('%s at %.0f frames/s from %s (%.0f before the TBF, %.0f after '
            'it; %d Mbit/s is %.0f)' % (FAST, rate, IN, free, after,
                                        TBF_RATE, want))
    suite.comment('%s: TBF at %s\'s root: %s; tc: %s'
                  % (name, FAST, what, shown))
    if name == 'ours':
        suite.result(abs(rate / want - 1) < 0.05,
                     '%s: a TBF of %d Mbit/s at %s\'s root holds what the '
                     'switch forwards to it within 5 %% (the port\'s egress '
                     'rate limit)' % (name, TBF_RATE, FAST), what)
        suite.result(' offloaded' in shown,
                     '%s: tc shows the TBF offloaded' % name, shown)
    suite.result(free > 2 * want and after > 2 * want and
                 (name == 'ours' or rate > 2 * want),
                 '%s: negative: %s frames the switch forwards run at more '
                 'than twice %d Mbit/s %s' % (
                     name, FAST, TBF_RATE,
                     'without the TBF, before it and after its removal'
                     if name == 'ours' else
                     'with the TBF too (not offloaded: software shapes what '
                     'the CPU sends only)'), what)


def one_set(suite, name):
    with Board('gnubee-pc1', dtb=dsa.DTB, extra=board_args(), nosmp=True,
               virtual_clock=True, norandmaps=True,
               append=dt_bootargs(dsa.DTB)) as b:
        b.wait_ready()
        b.check('%s %s %s %s' % (dsa.LOAD, name, SLOW, FAST), timeout=120)
        b.check('ip link set %s up && ip link set %s up' % (SLOW, FAST))
        b.check('ethtool -s %s speed 100 duplex full autoneg off' % SLOW)
        b.check('(for i in $(seq 100); do [ "$(cat /sys/class/net/%s/speed '
                '2>/dev/null)" = 100 ] && ip link show %s | grep -q '
                'LOWER_UP && exit 0; sleep 0.1; done; exit 1)' % (SLOW, SLOW),
                timeout=60)
        if not dsa.carrier(b, [FAST]):
            raise RuntimeError('no carrier on %s' % FAST)
        b.check('sleep 1')
        sch = int(b.check('devmem %#x 32' % QTX_SCH), 16)
        r = measure(b)
        slow, fast = r[SLOW][0], r[FAST][0]
        what = '%s at %.0f frames/s (100 Mbit: %.0f), %s at %.0f' % (
            SLOW, slow, LINE_100, FAST, fast)
        suite.comment('%s: per-port queues: %s; %s dropped %d, %s %d' % (
            name, what, SLOW, r[SLOW][1], FAST, r[FAST][1]))
        suite.result(sch & MAX_RATE_EN and (sch & 0x7ff) == (103 << 4 | 3),
                     '%s: swp0\'s link at 100 Mbit gives its QDMA queue (3) '
                     'a max rate of 103 Mbit/s' % name,
                     'QTX_SCH(3) = %#x' % sch)
        suite.result(slow >= 0.9 * LINE_100 and fast > 2 * slow,
                     '%s: the CPU sending to both, %s runs at its 100 Mbit '
                     'and %s at more than twice that' % (name, SLOW, FAST),
                     what)
        suite.result(r[SLOW][1] == 0,
                     '%s: %s\'s buffer drops none of what the CPU sends it '
                     '(its queue is held, not dropped)' % (name, SLOW),
                     'TxDrop +%d' % r[SLOW][1])
        fast_queues = fast
        b.check('tc qdisc add dev eth0 clsact && tc filter add dev eth0 '
                'egress matchall action skbedit queue_mapping 0')
        r = measure(b)
        b.check('tc qdisc del dev eth0 clsact')
        slow, fast = r[SLOW][0], r[FAST][0]
        suite.comment('%s: one queue: %s at %.0f frames/s, %s at %.0f; %s '
                      'dropped %d, %s %d' % (name, SLOW, slow, FAST, fast,
                                             SLOW, r[SLOW][1], FAST,
                                             r[FAST][1]))
        suite.result(fast <= 0.8 * fast_queues,
                     '%s: negative: every frame on one QDMA queue, %s is '
                     'dragged down by %s (head-of-line blocking: at most '
                     '4/5 of its rate with per-port queues)'
                     % (name, FAST, SLOW),
                     '%s at %.0f frames/s, %s at %.0f (%.0f with per-port '
                     'queues)' % (SLOW, slow, FAST, fast, fast_queues))
        tbf(suite, b, name)
        port_tbf(suite, b, name)
        dsa.no_oops(suite, b, name)
    suite.qemu_log(b, '%s: the board' % name)


def main():
    suite = Suite('qdma')
    for s in SETS:
        one_set(suite, s)
    return 1 if suite.failed else 0


if __name__ == '__main__':
    sys.exit(main())
