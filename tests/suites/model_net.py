#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""model (network): the switch model moves frames like the hardware.

Two host-side peers, A and B, are UDP sockets on the `-netdev socket`
backends of front ports 0 and 1; mainline's drivers (mtk_eth, mt7530-mdio)
put swp0 and swp1 in an offloaded bridge. Then:
- A and B ping each other (ARP + ICMP echo, frames built here) through
  the switch, and A pings the bridge's own address (the CPU path);
- A sends 10,000 frames to B: none lost, and the MIB counters of ports 0
  and 1 count them while those of the CPU port (6) do not;
- `set_link` in the monitor takes port 0's carrier down and up again, and
  `ip link` in the guest shows it within a second;
- a frame to an unknown unicast address floods to port 1 only while
  `bridge link set dev swp1 flood on`.
"""

import os
import re
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board  # noqa: E402
from peer import BCAST, Peer, eth, ipv4  # noqa: E402
import dsa  # noqa: E402
from tap import Suite  # noqa: E402

FRAMES = 10000
WINDOW = 64          # frames in flight from A before it waits for B
BR_IP = '192.0.2.1'
MAC_A = bytes.fromhex('020000000a0a')
MAC_B = bytes.fromhex('020000000b0b')
IP_A = '192.0.2.10'
IP_B = '192.0.2.11'
UNKNOWN = bytes.fromhex('020000000c0c')


def stats(b, dev):
    out = b.check('ethtool -S %s' % dev)
    return {k: int(v) for k, v in re.findall(r'^\s*(\S+): (\d+)$', out, re.M)}


def main():
    suite = Suite('model')
    a = Peer('A', MAC_A, IP_A)
    bb = Peer('B', MAC_B, IP_B)
    extra = a.netdev('pa') + bb.netdev('pb')
    with Board('gnubee-pc1', dtb=dsa.DTB, extra=extra) as b:
        b.wait_ready()
        b.check('%s mainline swp0 swp1' % dsa.LOAD, timeout=120)
        b.check('ip link add br0 type bridge && '
                'ip link set swp0 master br0 && ip link set swp1 master br0 && '
                'ip link set swp0 up && ip link set swp1 up && '
                'ip addr add %s/24 dev br0 && ip link set br0 up' % BR_IP)
        # Wait for the ports to forward (no STP: at once, once carrier is up).
        # (Loops run in a subshell: their exit must not end the console's.)
        b.check('(for i in $(seq 100); do bridge link show | grep -c "state '
                'forwarding" | grep -qx 2 && exit 0; sleep 0.1; done; '
                'bridge link show; exit 1)', timeout=60)

        rt = a.ping(IP_B, 1)
        suite.result(isinstance(rt, float),
                     'host peers ping each other through ports 0 and 1', rt)
        rt = bb.ping(IP_A, 2)
        suite.result(isinstance(rt, float),
                     'and back (port 1 to port 0)', rt)
        rt = a.ping(BR_IP, 3)
        suite.result(isinstance(rt, float),
                     'a host peer pings the bridge (CPU port, MTK tag)', rt)

        # 10,000 frames A -> B, both MACs learned by now.
        s0, s1, cpu = stats(b, 'swp0'), stats(b, 'swp1'), stats(b, 'eth0')
        a.answer = bb.answer = False
        payload = b'\x00' * 18
        frame = eth(MAC_B, MAC_A, 0x0800,
                    ipv4(IP_A, IP_B, 17, struct.pack('!HHHH', 9, 9, 26, 0) +
                         payload))
        # Only copies of this frame count: the bridge's own multicast
        # (IPv6 DAD, MLD) floods to B too.
        with bb.cond:
            bb.match, bb.matched = frame, 0
        t0 = time.monotonic()
        for i in range(FRAMES):
            if i >= WINDOW and i % WINDOW == 0:
                bb.wait_matched(i - WINDOW, 10)
            a.send(frame)
        got = bb.wait_matched(FRAMES, 30)
        secs = time.monotonic() - t0
        suite.result(got == FRAMES, '%d frames from port 0 to port 1 all '
                     'arrive' % FRAMES, '%d received, %d lost'
                     % (got, FRAMES - got))
        suite.comment('%d frames in %.2f s host time (%.0f us/frame)'
                      % (FRAMES, secs, secs * 1e6 / FRAMES))
        t0_, t1_, tc = stats(b, 'swp0'), stats(b, 'swp1'), stats(b, 'eth0')

        def delta(new, old, key):
            return new.get(key, -1) - old.get(key, -1)
        rx0 = delta(t0_, s0, 'RxUnicast')
        tx1 = delta(t1_, s1, 'TxUnicast')
        cpu_tx = delta(tc, cpu, 'p06_TxUnicast')
        suite.result(rx0 == FRAMES and tx1 == FRAMES,
                     'MIB: port 0 RxUnicast and port 1 TxUnicast count %d'
                     % FRAMES, 'RxUnicast +%d, TxUnicast +%d' % (rx0, tx1))
        suite.result(0 <= cpu_tx < 10,
                     'MIB: the CPU port did not see them (p06_TxUnicast +%d)'
                     % cpu_tx, 'p06 counters: %s' % {
                         k: delta(tc, cpu, k) for k in tc if k.startswith('p06')
                         and delta(tc, cpu, k)})

        # Carrier: set_link in the monitor, seen by ip link within 1 s.
        for state, want in (('off', 'NO-CARRIER'), ('on', 'LOWER_UP')):
            b.hmp('set_link pa %s' % state)
            t = time.monotonic()
            st, out = b.run('(for i in $(seq 40); do ip link show swp0 | '
                            'grep -q %s && exit 0; sleep 0.025; done; '
                            'ip link show swp0; exit 1)' % want, timeout=30)
            secs = time.monotonic() - t
            suite.result(st == 0 and secs <= 1.0,
                         'set_link pa %s: swp0 shows %s (%.2f s)'
                         % (state, want, secs), out)
        b.check('(for i in $(seq 100); do bridge link show dev swp0 | '
                'grep -q "state forwarding" && exit 0; sleep 0.1; done; '
                'exit 1)')

        # Unknown unicast flooding follows the bridge port flag.
        for flood in ('off', 'on'):
            b.check('bridge link set dev swp1 flood %s' % flood)
            # The switch handles a port's frames in order: once the
            # broadcast sent after it is at B, so is the unknown unicast
            # if it was flooded there.
            marker = struct.pack('!H', 0x1000 + len(flood))
            a.send(eth(UNKNOWN, MAC_A, 0x88b5, marker * 8))
            a.send(eth(BCAST, MAC_A, 0x88b5, marker * 8))
            fence = bb.wait(lambda f: f[:6] == BCAST and
                            f[14:16] == marker, 10)
            with bb.cond:
                flooded = any(f[:6] == UNKNOWN and f[14:16] == marker
                              for f in bb.frames)
            ok = fence is not None and flooded == (flood == 'on')
            suite.result(ok, 'unknown unicast %s port 1 with flood %s'
                         % ('reaches' if flood == 'on' else 'does not reach',
                            flood), 'broadcast fence %s, unknown unicast %s'
                         % ('arrived' if fence else 'lost',
                            'flooded' if flooded else 'not flooded'))


if __name__ == '__main__':
    main()
