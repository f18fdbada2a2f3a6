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
  `bridge link set dev swp1 flood on`;
- the switch model's frame generator (its "gen" property, a test
  instrument): 2000 broadcasts taken in at port 2 on the virtual clock
  are all counted by port 2's MIB and by swp2; a value it refuses is an
  error in the monitor. (Broken once: without the property both fail.)
  Armed programs wait in order, each started by a frame to its frames'
  source leaving its port (a frame to another address starts none); a
  17th is refused, `stop` drops them;
- the wire side is fuzzed: a 15-byte frame whose 802.1Q header is cut
  short (it once killed QEMU), then 100,000 random frames spread over the
  five front ports (lengths 1 to 2100, random and stacked tags, the MTK
  special tag's bytes, truncated IPv4/IPv6/IGMP/ARP headers, random and
  multicast addresses): QEMU stays up, the MIB counters of the ports
  count every frame the ports took, the guest logs no WARNING/BUG/Oops,
  and A and B still ping each other. (Lengths start at 1: the socket
  backend takes an empty datagram for the end of the connection and
  stops reading, net/socket.c.)

The MT7620A's GSW (the same model, chip mt7620), with no driver at all:
out of reset it is an unmanaged switch, so host peers on ports 0 and 1
ping each other through it; then 50,000 random frames over its five
ports: QEMU stays up, the ports' MIB counters (read with devmem in the
GSW's own layout: good and bad frames, 16 bits each, and the control
frames dropped) count every frame, and the peers still ping. (Broken
once: the bad-frame count left out, the count misses the runts.)
"""

import os
import random
import re
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board  # noqa: E402
from peer import BCAST, Peer, eth, ipv4, send_paced  # noqa: E402
import dsa  # noqa: E402
from tap import Suite  # noqa: E402

FRAMES = 10000
FUZZ = 100000        # random frames over the five front ports
FUZZ_SEED = int(os.environ.get('FUZZ_SEED', '7621'))
PORTS = ['swp0', 'swp1', 'swp2', 'swp3', 'swp4']
WINDOW = 64          # frames in flight from A before it waits for B
BR_IP = '192.0.2.1'
MAC_A = bytes.fromhex('020000000a0a')
MAC_B = bytes.fromhex('020000000b0b')
IP_A = '192.0.2.10'
IP_B = '192.0.2.11'
UNKNOWN = bytes.fromhex('020000000c0c')


def rand_mac(rng):
    return bytes(rng.getrandbits(8) for _ in range(6))


def fuzz_frame(rng):
    """One hostile frame: mostly well-formed up to a random cut."""
    dst = rng.choice([BCAST, MAC_A, MAC_B, UNKNOWN, rand_mac(rng),
                      bytes.fromhex('01005e000001'),
                      bytes.fromhex('333300000001'),
                      bytes.fromhex('0180c2000000'),
                      bytes.fromhex('0180c200000e')])
    src = rng.choice([rand_mac(rng), rand_mac(rng), MAC_A, MAC_B, BCAST])
    kind = rng.randrange(8)
    body = b''
    if kind == 0:       # anything
        body = rng.randbytes(rng.randrange(0, 2100))
    elif kind in (1, 2):    # stacked tags: 802.1Q, 802.1ad, old QinQ, MTK
        for _ in range(rng.randrange(1, 4)):
            tpid = rng.choice([0x8100, 0x88a8, 0x9100, 0x0000, 0x0001,
                               0x0002, 0x0003, rng.getrandbits(16)])
            body += struct.pack('!HH', tpid, rng.getrandbits(16))
        body += struct.pack('!H', rng.choice([0x0800, 0x86dd, 0x0806,
                                              rng.getrandbits(16)]))
        body += rng.randbytes(rng.randrange(0, 1600))
    elif kind == 3:     # IPv4, any IHL and length
        ihl = rng.randrange(16)
        hdr = struct.pack('!BBHHHBB', 0x40 | ihl, rng.getrandbits(8),
                          rng.getrandbits(16), rng.getrandbits(16),
                          rng.getrandbits(16), rng.getrandbits(8),
                          rng.choice([1, 2, 6, 17, 41, rng.getrandbits(8)]))
        body = (struct.pack('!H', 0x0800) + hdr +
                rng.randbytes(rng.randrange(0, 1600)))
    elif kind == 4:     # IPv6 with next headers
        body = (struct.pack('!HIHBB', 0x86dd, 0x60000000,
                            rng.getrandbits(16),
                            rng.choice([0, 6, 17, 43, 44, 58, 59]), 255) +
                rng.randbytes(rng.randrange(0, 1600)))
    elif kind == 5:     # IGMP
        igmp = rng.randbytes(rng.randrange(0, 40))
        body = struct.pack('!H', 0x0800) + ipv4(IP_A, '224.0.0.1', 2, igmp)
    elif kind == 6:     # ARP
        body = struct.pack('!H', 0x0806) + rng.randbytes(rng.randrange(0, 60))
    else:               # the headers above, cut anywhere
        body = struct.pack('!HH', 0x8100, 1) + struct.pack('!H', 0x0800) + \
            ipv4(IP_A, IP_B, 17, b'\0' * 16)
    frame = dst + src + body
    if rng.randrange(4) == 0:
        frame = frame[:rng.randrange(1, 19)]
    return frame[:2100] or frame[:1] or b'\0'


def rx_seen(b):
    """Frames the front ports took, from their MIB counters."""
    n = 0
    for p in PORTS:
        st = dsa.ethtool_stats(b, p)
        n += sum(st.get(k, 0) for k in ('RxUnicast', 'RxMulticast',
                                        'RxBroadcast', 'RxUnderSizeErr',
                                        'RxOverSzErr', 'RxPause'))
    return n


GEN_FRAMES = 2000


def generator(suite, b):
    """The switch model's frame generator (its "gen" property, a test
    instrument for make bench): GEN_FRAMES broadcasts taken in at port 2
    (swp2, standalone), one every 100 us of the virtual clock: the model
    reports them all sent, port 2's MIB and swp2 count them all; a value it
    refuses is an error to the monitor's user and leaves it running."""
    frame = eth(BCAST, bytes.fromhex('0200000000fe'), 0x88b5, b'gen' * 16)
    rx0 = dsa.netdev_stat(b, 'swp2', 'rx_packets')
    mib0 = dsa.ethtool_stats(b, 'swp2').get('RxBroadcast', 0)
    start = b.hmp('qom-set %s gen 2 %d 100000 %s'
                  % (dsa.SWITCH_QOM, GEN_FRAMES, frame.hex()))
    refused = b.hmp('qom-set %s gen 2 1 100000 zz%s'
                    % (dsa.SWITCH_QOM, frame.hex()))
    deadline = time.monotonic() + 60
    while True:
        state = b.hmp('qom-get %s gen' % dsa.SWITCH_QOM).strip()
        if state.endswith('left 0"') or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    time.sleep(1)
    rx = dsa.netdev_stat(b, 'swp2', 'rx_packets') - rx0
    mib = dsa.ethtool_stats(b, 'swp2').get('RxBroadcast', 0) - mib0
    # Held: ticks a frame waited for the CPU port, none lost by it
    done = re.match(r'"sent %d held \d+ dropped 0 left 0"$' % GEN_FRAMES,
                    state)
    suite.result(not start.strip() and done and mib == GEN_FRAMES
                 and rx == GEN_FRAMES, 'the switch model\'s frame generator: '
                 '%d broadcasts in at port 2 on the virtual clock, all '
                 'counted by its MIB and by swp2' % GEN_FRAMES,
                 'start %r, state %r, MIB RxBroadcast +%d, swp2 rx_packets '
                 '+%d' % (start, state, mib, rx))
    suite.result('Error: gen: the frame is not hexadecimal' in refused,
                 'a generator value it refuses is an error to the monitor\'s '
                 'user (and the generator went on)', refused)


GEN_STATION = bytes.fromhex('0200000000fd')
GEN_OTHER = bytes.fromhex('0200000000fc')


def gen_state(b, want, timeout=60):
    """The generator's state once it reads @want (or at @timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        state = b.hmp('qom-get %s gen' % dsa.SWITCH_QOM).strip().strip('"')
        if state == want or time.monotonic() > deadline:
            return state
        time.sleep(0.2)


def armed(suite, b):
    """Armed generator programs (make bench arms a board's programs before
    it boots): they wait in order, each starting when a frame to its
    frames' source address leaves its port (here a datagram swp2 sends to
    a neighbour with that address); a frame to another address does not
    start one (negative); a 17th armed program is refused; `stop` drops
    the ones still armed. (Broken once: with the trigger's address test
    left out, the frame to the other address started the first program.)
    """
    frame = eth(BCAST, GEN_STATION, 0x88b5, b'arm' * 16)
    mib0 = dsa.ethtool_stats(b, 'swp2').get('RxBroadcast', 0)
    b.check('ip addr add 198.51.100.1/24 dev swp2 && '
            'ip neigh replace 198.51.100.2 lladdr %s dev swp2 nud permanent'
            ' && ip neigh replace 198.51.100.3 lladdr %s dev swp2 nud '
            'permanent' % (':'.join('%02x' % x for x in GEN_STATION),
                           ':'.join('%02x' % x for x in GEN_OTHER)))
    out = ''.join(b.hmp('qom-set %s gen arm 2 %d 100000 %s'
                        % (dsa.SWITCH_QOM, n, frame.hex()))
                  for n in (100, 200))
    first = gen_state(b, 'sent 0 held 0 dropped 0 left 0 armed 2', 5)
    b.check('echo other > /dev/udp/198.51.100.3/9')
    other = gen_state(b, 'sent 100 held 0 dropped 0 left 0 armed 1', 3)
    suite.result(not out and other == 'sent 0 held 0 dropped 0 left 0 '
                 'armed 2', 'two armed generator programs wait: a frame '
                 'swp2 sends to another address starts neither (negative)',
                 'arm: %r; armed: %r; after the other frame: %r'
                 % (out, first, other))
    b.check('echo go > /dev/udp/198.51.100.2/9')
    one = gen_state(b, 'sent 100 held 0 dropped 0 left 0 armed 1')
    b.check('echo go > /dev/udp/198.51.100.2/9')
    two = gen_state(b, 'sent 300 held 0 dropped 0 left 0')
    time.sleep(1)
    mib = dsa.ethtool_stats(b, 'swp2').get('RxBroadcast', 0) - mib0
    suite.result(one == 'sent 100 held 0 dropped 0 left 0 armed 1' and
                 two == 'sent 300 held 0 dropped 0 left 0' and mib == 300,
                 'armed generator programs start one after the other, each '
                 'on a frame swp2 sends to their frames\' source address; '
                 'port 2\'s MIB counts all 300 frames',
                 'after the first frame: %r; after the second: %r; MIB '
                 'RxBroadcast +%d' % (one, two, mib))
    arm = 'qom-set %s gen arm 2 1 100000 %s' % (dsa.SWITCH_QOM, frame.hex())
    out = ''.join(b.hmp(arm) for _ in range(16))
    refused = b.hmp(arm)
    full = gen_state(b, '', 0)
    b.hmp('qom-set %s gen stop' % dsa.SWITCH_QOM)
    stopped = gen_state(b, '', 0)
    b.check('ip addr del 198.51.100.1/24 dev swp2')
    suite.result(not out and 'gen: 16 programs armed already' in refused
                 and full.endswith(' armed 16') and
                 not stopped.endswith(' armed 16') and ' armed' not in
                 stopped, 'a 17th armed generator program is refused; '
                 '`stop` drops the armed ones',
                 'arming 16: %r; the 17th: %r; state %r, after stop %r'
                 % (out, refused, full, stopped))


def send_fuzz(suite, b, peers, n, what):
    """@n random frames (model_net's generator, FUZZ_SEED) spread over
    @peers' ports; True if QEMU stayed up (a result, named by @what)."""
    rng = random.Random(FUZZ_SEED)
    secs = send_paced((peers[i % len(peers)], fuzz_frame(rng))
                      for i in range(n))
    time.sleep(2)
    alive = b.proc.poll() is None
    suite.result(alive, '%d random frames (seed %d) on %s: QEMU stays up'
                 % (n, FUZZ_SEED, what), 'QEMU exited %s' % b.proc.returncode)
    if alive:
        suite.comment('%d frames sent in %.1f s' % (n, secs))
    return alive


def fuzz(suite, b, peers, a, bb):
    """The wire side of the models under random frames."""
    for p in peers:
        p.answer, p.keep = False, False
    # The 15-byte frame that once killed QEMU (a tag cut short).
    short = MAC_B + MAC_A + b'\x81\x00\x00'
    for p in peers:
        p.send(short)
    time.sleep(1)
    alive = b.proc.poll() is None
    suite.result(alive and b.run('true', timeout=30)[0] == 0,
                 'a 15-byte frame with an 802.1Q header cut short, on every '
                 'front port: QEMU and the guest carry on',
                 'QEMU exited %s' % b.proc.returncode)
    if not alive:
        return

    seen0 = rx_seen(b)
    if not send_fuzz(suite, b, peers, FUZZ, 'the five front ports'):
        return
    seen = rx_seen(b) - seen0
    suite.result(seen == FUZZ, 'the ports\' MIB counters count every '
                 'random frame (%d)' % FUZZ, 'counted %d' % seen)
    st, out = b.run('dmesg | grep -E "WARNING|BUG|Oops|Call Trace" | '
                    'head -n 20; true')
    suite.result(st == 0 and not out.strip(),
                 'no WARNING, BUG or Oops in the guest after the fuzzing',
                 out)
    for p in (a, bb):
        p.answer, p.keep = True, True
    rt = a.ping(IP_B, 10)
    suite.result(isinstance(rt, float),
                 'after the fuzzing, host peers ping each other through '
                 'ports 0 and 1', rt)


GSW_MIB = 0x10114000     # the MT7620 GSW's port 0 counters; 0x100 a port
GSW_FUZZ = 50000


def gsw_rx_counts(b):
    """Port n's (good, bad, control-dropped) frame counters, 16 bits."""
    counts = []
    for p in range(5):
        rx = int(b.check('devmem %#x 32' % (GSW_MIB + p * 0x100 + 0x20)), 16)
        drop = int(b.check('devmem %#x 32' % (GSW_MIB + p * 0x100 + 0x2c)),
                   16)
        counts.append((rx & 0xffff, rx >> 16, drop >> 16))
    return counts


def gsw_seen(new, old):
    """Frames counted between two readings (each counter wraps at 16 bits)"""
    return sum((n - o) & 0xffff for pn, po in zip(new, old)
               for n, o in zip(pn, po))


def mt7620_gsw(suite):
    """The MT7620A's GSW out of reset, no driver: forwarding, fuzzing."""
    a = Peer('A', MAC_A, IP_A)
    bb = Peer('B', MAC_B, IP_B)
    c, d, e = (Peer(n, bytes.fromhex('0200000000%02x' % i), '192.0.2.%d' % i)
               for i, n in ((12, 'C'), (13, 'D'), (14, 'E')))
    peers = [a, bb, c, d, e]
    extra = []
    for p, ident in zip(peers, ('pa', 'pb', 'pc', 'pd', 'pe')):
        extra += p.netdev(ident)
    with Board('mt7620a-eval', extra=extra) as b:
        b.wait_ready()
        rt = a.ping(IP_B, 1)
        suite.result(isinstance(rt, float), 'MT7620A: host peers ping each '
                     'other through the GSW out of reset (ports 0 and 1)', rt)
        for p in peers:
            p.answer, p.keep = False, False
        seen0 = gsw_rx_counts(b)
        if send_fuzz(suite, b, peers, GSW_FUZZ,
                     'the MT7620A GSW\'s five ports'):
            seen = gsw_seen(gsw_rx_counts(b), seen0)
            suite.result(seen == GSW_FUZZ, 'MT7620A: the GSW\'s MIB counters '
                         '(good, bad, control) count every random frame (%d)'
                         % GSW_FUZZ, 'counted %d' % seen)
            for p in (a, bb):
                p.answer, p.keep = True, True
            rt = a.ping(IP_B, 10)
            suite.result(isinstance(rt, float), 'MT7620A: after the fuzzing, '
                         'host peers ping each other through the GSW', rt)
    suite.qemu_log(b, 'the MT7620A board')


def main():
    suite = Suite('model')
    a = Peer('A', MAC_A, IP_A)
    bb = Peer('B', MAC_B, IP_B)
    c, d, e = (Peer(n, bytes.fromhex('0200000000%02x' % i), '192.0.2.%d' % i)
               for i, n in ((12, 'C'), (13, 'D'), (14, 'E')))
    extra = (a.netdev('pa') + bb.netdev('pb') + c.netdev('pc') +
             d.netdev('pd') + e.netdev('pe'))
    with Board('gnubee-pc1', dtb=dsa.DTB, extra=extra) as b:
        b.wait_ready()
        b.check('%s mainline %s && for p in swp2 swp3 swp4; do '
                'ip link set $p up || exit 1; done'
                % (dsa.LOAD, ' '.join(PORTS)), timeout=120)
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
        s0, s1, cpu = dsa.ethtool_stats(b, 'swp0'), dsa.ethtool_stats(b, 'swp1'), dsa.ethtool_stats(b, 'eth0')
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
        t0_, t1_, tc = dsa.ethtool_stats(b, 'swp0'), dsa.ethtool_stats(b, 'swp1'), dsa.ethtool_stats(b, 'eth0')

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

        generator(suite, b)
        armed(suite, b)
        fuzz(suite, b, [a, bb, c, d, e], a, bb)
    suite.qemu_log(b, 'the board')
    mt7620_gsw(suite)


if __name__ == '__main__':
    main()
