#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""flower: tc flower offload through the MT7530's ACL (issue 20), with our
drivers on the emulated GB-PC1.

Three host-side peers: A on swp0, B on swp1 (swp0 and swp1 in br0, a
VLAN-unaware bridge: A's frames to B's learned address go to B in the
switch, the CPU never sees them), C on swp2 (standalone). Every filter is
`skip_sw` on swp0's ingress, so only the switch acts on it; a software
counter (matchall skip_hw pass, lowest priority) on swp0's ingress tells
what reached the CPU from port 0.

- Matches (action drop): dst_mac, src_mac, EtherType, src_ip, dst_ip,
  dst_ip with a /24 prefix, ip_proto, TCP/UDP src_port and dst_port. For
  each, a positive check (a frame that matches, sent from A to B, arrives
  nowhere: "nothing arrives", B's count of it 0) and a negative check (the
  same frame with only the matched field changed arrives at B), each its
  own result; the negative frame, sent after the positive one on the same
  port, is the fence the positive check waits for.
- Actions (on dst_ip): drop (B gets nothing), trap (the CPU gets the frame,
  B does not), redirect to swp2 (C gets it, B does not), mirror to swp2 (C
  and B get it); and for each, a frame that does not match is untouched (B
  gets it, C and the CPU nothing).
- The ACL has no hit counters (none sourced): every filter here says
  `hw_stats disabled`. tc's flags: a drop filter with neither skip_sw
  nor skip_hw is offloaded too (tc shows in_hw; a matching frame is
  dropped in the switch); negative: one with tc's default hit counters,
  and one with skip_hw, are not (not_in_hw; the frame arrives).
- Refusals, each with its extack text: an egress filter, `action pass`, a
  VLAN push, two actions, a match on vlan_id, an IPv6 match, hit counters
  asked for (tc's default `hw_stats`), a redirect
  out of the switch (to br0), a second mirror port while one is in use,
  and a 33rd rule (the ACL has 32; each of these rules one pattern).
- No leak: 32 rules added, deleted, and 32 added again; deleting swp0's
  clsact frees its rules (32 can be added once more).
- no WARNING/BUG/Oops in the guest, and the QEMU log (guest_errors,unimp)
  holds nothing unexpected: the driver writes no ACL bit the model calls
  unmodelled.

Broken once, each run here (2026-12-07): (1) the model comparing every
pattern word as unequal (mt7530_acl_pattern() returning false): the 13
positive checks (9 matches, 4 actions) failed, the rest passed; (2) the
driver scoping its patterns to the wrong port (ACL_SP BIT(port + 1)) and
setting no extack message: the 13 positive checks and the 9 refusal
checks failed (and trap's negative one, whose CPU count then took the
positive frame's: since counted per frame); (3) the driver comparing no
bit (BIT_CMP 0) and freeing nothing on delete: every negative check
failed (and every positive one, whose fence is the negative frame), and
so did the 33rd-rule and both no-leak checks.
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

PORTS = ['swp0', 'swp1', 'swp2']
MAC = {n: bytes.fromhex('02000000%02x%02x' % (i, i))
       for i, n in enumerate('ABC', 0xa)}
MAC_A2 = bytes.fromhex('020000000a0b')
MAC_UNKNOWN = bytes.fromhex('02000000eeee')
IP = {'A': '192.0.2.10', 'B': '192.0.2.11', 'C': '192.0.2.12'}
ETYPE, ETYPE2 = 0x88b5, 0x88b6
MOD = 'ralink_mt7530'
NO_STATS = 'hw_stats disabled'


def mac_str(m):
    return ':'.join('%02x' % x for x in m)


def udp(sport, dport, payload):
    return struct.pack('!HHHH', sport, dport, 8 + len(payload), 0) + payload


def tcp(sport, dport, payload):
    return struct.pack('!HHIIBBHHH', sport, dport, 1, 0, 5 << 4, 0x02,
                       8192, 0, 0) + payload


def frame(marker, dst=None, src=None, etype=0x0800, sip=None, dip=None,
          proto=17, sport=1000, dport=2000):
    """A frame from A to B unless told otherwise, @marker in its payload."""
    dst = dst or MAC['B']
    src = src or MAC['A']
    if etype != 0x0800:
        return eth(dst, src, etype, marker.ljust(46, b'\0'))
    l4 = (udp if proto == 17 else tcp)(sport, dport, marker)
    return eth(dst, src, 0x0800,
               ipv4(sip or IP['A'], dip or IP['B'], proto, l4))


def count(peer, marker):
    with peer.cond:
        return sum(1 for f in peer.frames if marker in f)


def cpu_rx(b):
    """Frames the CPU took in on swp0 (its software counter)."""
    out = b.check('tc -s filter show dev swp0 ingress pref 49000')
    for line in out.splitlines():
        line = line.split()
        if line[:1] == ['Sent'] and 'pkt' in line:
            return int(line[line.index('pkt') - 1])
    raise RuntimeError('no software counter on swp0: %s' % out)


def add(b, args):
    """tc filter add on swp0 ingress, its action without hit counters
    (the ACL has none); (status, output)."""
    return b.run('tc filter add dev swp0 ingress %s %s 2>&1'
                 % (args, NO_STATS))


def flush(b):
    b.check('tc filter del dev swp0 ingress pref 1 2>/dev/null; '
            'tc filter show dev swp0 ingress pref 1 | grep -c . ; true')


def send_pair(p, pos, neg, to, tag):
    """A sends @pos then @neg; wait for @neg at @to (the fence)."""
    a = p['A']
    a.send(pos)
    a.send(neg)
    return to.wait(lambda f: tag in f, 10) is not None


# (name, tc match, positive frame, negative frame)
def matches():
    return [
        ('dst_mac', 'protocol all flower skip_sw dst_mac %s'
         % mac_str(MAC['B']),
         lambda m: frame(m, etype=ETYPE),
         lambda m: frame(m, dst=MAC_UNKNOWN, etype=ETYPE)),
        ('src_mac', 'protocol all flower skip_sw src_mac %s'
         % mac_str(MAC['A']),
         lambda m: frame(m, etype=ETYPE),
         lambda m: frame(m, src=MAC_A2, etype=ETYPE)),
        ('EtherType', 'protocol 0x%04x flower skip_sw' % ETYPE,
         lambda m: frame(m, etype=ETYPE),
         lambda m: frame(m, etype=ETYPE2)),
        ('src_ip', 'protocol ip flower skip_sw src_ip %s' % IP['A'],
         lambda m: frame(m),
         lambda m: frame(m, sip='192.0.2.99')),
        ('dst_ip', 'protocol ip flower skip_sw dst_ip %s' % IP['B'],
         lambda m: frame(m),
         lambda m: frame(m, dip='192.0.2.98')),
        ('dst_ip/24', 'protocol ip flower skip_sw dst_ip 198.51.100.0/24',
         lambda m: frame(m, dip='198.51.100.77'),
         lambda m: frame(m, dip='198.51.101.77')),
        ('ip_proto', 'protocol ip flower skip_sw ip_proto udp',
         lambda m: frame(m),
         lambda m: frame(m, proto=6)),
        ('src_port', 'protocol ip flower skip_sw ip_proto udp src_port 1000',
         lambda m: frame(m),
         lambda m: frame(m, sport=1001)),
        ('dst_port', 'protocol ip flower skip_sw ip_proto tcp dst_port 2000',
         lambda m: frame(m, proto=6),
         lambda m: frame(m, proto=6, dport=2001)),
    ]


def match_checks(suite, b, p):
    bb = p['B']
    for i, (name, args, pos, neg) in enumerate(matches()):
        st, out = add(b, 'pref 1 %s action drop' % args)
        if st:
            suite.fail('%s: a drop rule is offloaded' % name, out)
            continue
        pm, nm = b'pos-match-%d' % i, b'neg-match-%d' % i
        fenced = send_pair(p, pos(pm), neg(nm), bb, nm)
        got = count(bb, pm)
        suite.result(fenced and got == 0, '%s: positive: a frame that '
                     'matches is dropped (nothing arrives at B)' % name,
                     'fence %s; B got %d' % (fenced, got))
        suite.result(fenced, '%s: negative: the frame with only %s changed '
                     'arrives at B' % (name, name), 'not within 10 s')
        flush(b)


def action_checks(suite, b, p):
    bb, c = p['B'], p['C']
    base = 'pref 1 protocol ip flower skip_sw dst_ip %s' % IP['B']
    cases = [
        ('drop', 'action drop'),
        ('trap', 'action trap'),
        ('redirect', 'action mirred egress redirect dev swp2'),
        ('mirror', 'action mirred egress mirror dev swp2'),
    ]
    for name, act in cases:
        st, out = add(b, '%s %s' % (base, act))
        if st:
            suite.fail('%s: the rule is offloaded' % name, out)
            continue
        pm, nm = b'pos-act-' + name.encode(), b'neg-act-' + name.encode()
        cpu0 = cpu_rx(b)
        p['A'].send(frame(pm))
        if name in ('redirect', 'mirror'):
            c.wait(lambda f: pm in f, 5)
        time.sleep(0.5)
        cpu1 = cpu_rx(b)
        # The negative frame, after the positive one: B's fence for it
        p['A'].send(frame(nm, dip='192.0.2.98'))
        fenced = bb.wait(lambda f: nm in f, 10) is not None
        time.sleep(0.5)
        cpu2 = cpu_rx(b)
        got_b, got_c, cpu = count(bb, pm), count(c, pm), cpu1 - cpu0
        want = {'drop': (0, 0, 0), 'trap': (0, 0, 1),
                'redirect': (0, 1, 0), 'mirror': (1, 1, 0)}[name]
        suite.result(fenced and (got_b, got_c, cpu) == want,
                     '%s: positive: a matching frame from A to B: B gets %d, '
                     'C (swp2) %d, the CPU %d' % ((name,) + want),
                     'fence %s; B %d, C %d, CPU %d'
                     % (fenced, got_b, got_c, cpu))
        stray = count(c, nm)
        suite.result(fenced and stray == 0 and cpu2 == cpu1,
                     '%s: negative: a frame that does not match arrives at B '
                     'and nowhere else (C and the CPU nothing)' % name,
                     'fence %s; C got %d, CPU %d'
                     % (fenced, stray, cpu2 - cpu1))
        flush(b)


def flag_checks(suite, b, p):
    """tc's flags and hit counters: a filter with neither skip_sw nor
    skip_hw is offloaded as a skip_sw one is (without hit counters); one
    that asks for counters (tc's default) or has skip_hw is not."""
    bb = p['B']
    rule = 'pref 1 protocol ip flower %s dst_ip ' + IP['B'] + ' action drop'
    st, out = b.run('tc filter add dev swp0 ingress %s %s 2>&1'
                    % (rule % '', NO_STATS))
    shown = b.check('tc filter show dev swp0 ingress pref 1')
    pm, nm = b'pos-flags-default', b'neg-flags-default'
    fenced = send_pair(p, frame(pm), frame(nm, dip='192.0.2.98'), bb, nm)
    got = count(bb, pm)
    suite.result(st == 0 and re.search(r'(?<!not_)in_hw', shown) and
                 fenced and got == 0,
                 'a filter without skip_sw (%s) is offloaded too (in_hw): '
                 'a matching frame from A is dropped in the switch (nothing '
                 'arrives at B)' % NO_STATS,
                 'status %d %s; fence %s; B got %d; %s'
                 % (st, out, fenced, got, shown))
    flush(b)
    for name, flags, stats in (
            ('without skip_sw and with tc\'s default hit counters', '', ''),
            ('with skip_hw', 'skip_hw', NO_STATS)):
        b.check('tc filter add dev swp0 ingress %s %s' % (rule % flags,
                                                          stats))
        shown = b.check('tc filter show dev swp0 ingress pref 1')
        pm = b'pos-flags-' + flags.encode() + stats[:2].encode()
        p['A'].send(frame(pm))
        arrived = bb.wait(lambda f: pm in f, 10) is not None
        suite.result(arrived and 'not_in_hw' in shown,
                     'negative: a drop filter %s is not offloaded '
                     '(not_in_hw), and a matching frame from A arrives at B '
                     '(the switch forwards it; software never sees it)'
                     % name, 'arrived %s; %s' % (arrived, shown))
        flush(b)


def refusal_checks(suite, b):
    cases = [
        ('an egress filter',
         'tc filter add dev swp0 egress protocol ip flower skip_sw dst_ip '
         '192.0.2.1 action drop', 'the ACL acts on ingress only'),
        ('action pass', 'ingress protocol ip flower skip_sw dst_ip 192.0.2.1 '
         'action pass', 'the ACL offloads drop, trap, redirect and mirror '
         'only'),
        ('a VLAN push', 'ingress protocol ip flower skip_sw dst_ip 192.0.2.1 '
         'action vlan push id 5', 'the ACL cannot push, pop or rewrite a '
         'VLAN tag'),
        ('two actions', 'ingress protocol ip flower skip_sw dst_ip 192.0.2.1 '
         'action mirred egress mirror dev swp2 action drop',
         'the ACL takes one action a rule'),
        ('a vlan_id match', 'ingress protocol 802.1q flower skip_sw '
         'vlan_id 5 action drop', 'the ACL matches MAC addresses, '
         'EtherType, IPv4 addresses, IP protocol and TCP/UDP ports only'),
        ('an IPv6 match', 'ingress protocol ipv6 flower skip_sw dst_ip '
         '2001:db8::1 action drop', 'the ACL matches MAC addresses, '
         'EtherType, IPv4 addresses, IP protocol and TCP/UDP ports only'),
        ('hit counters asked for (tc\'s default)', 'ingress protocol ip '
         'flower skip_sw dst_ip 192.0.2.1 action drop',
         'the ACL has no hit counters (hw_stats disabled)'),
        ('a redirect out of the switch', 'ingress protocol ip flower skip_sw '
         'dst_ip 192.0.2.1 action mirred egress redirect dev br0',
         'the ACL redirects and mirrors to a port of the same switch only'),
    ]
    for name, args, msg in cases:
        if not args.startswith('tc '):
            args = 'tc filter add dev swp0 pref 1 ' + args
        if 'counters' not in name:
            args += ' ' + NO_STATS
        st, out = b.run(args + ' 2>&1')
        want = 'Error: %s: %s' % (MOD, msg)
        suite.result(st != 0 and want in out, 'refused: %s, with "%s"'
                     % (name, msg), 'status %d: %s' % (st, out))
    # One monitor port: a mirror to swp1 while one to swp2 is in use
    st, out = add(b, 'pref 1 protocol ip flower skip_sw dst_ip 192.0.2.1 '
                  'action mirred egress mirror dev swp2')
    st2, out2 = add(b, 'pref 2 protocol ip flower skip_sw dst_ip 192.0.2.2 '
                    'action mirred egress mirror dev swp1')
    suite.result(st == 0 and st2 != 0 and
                 'Error: %s: the switch has one monitor port' % MOD in out2,
                 'refused: a mirror to a second port while one mirrors, '
                 'with "the switch has one monitor port"',
                 'first: %d %s; second: %d %s' % (st, out, st2, out2))
    b.check('tc filter del dev swp0 ingress pref 1; '
            'tc filter del dev swp0 ingress pref 2 2>/dev/null; true')


def fill(b, n, first=1):
    """Add @n drop rules (prefs @first..); how many the switch took and
    the output of the first refusal."""
    out = b.check('n=0; for i in $(seq %d %d); do tc filter add dev swp0 '
                  'ingress pref $i protocol $(printf 0x%%x $((0x8900 + i))) '
                  'flower '
                  'skip_sw action drop %s 2>/tmp/flower.err || break; '
                  'n=$((n + 1)); done; echo took $n; cat /tmp/flower.err'
                  % (first, first + n - 1, NO_STATS), timeout=300)
    took = int(out.split('took ')[1].split()[0])
    return took, out


def capacity_checks(suite, b):
    took, out = fill(b, 33)
    suite.result(took == 32 and 'Error: %s: the ACL\'s 32 rules are in use'
                 % MOD in out, 'refused: a 33rd rule, with "the ACL\'s 32 '
                 'rules are in use"', out)
    b.check('for i in $(seq 1 33); do tc filter del dev swp0 ingress pref $i '
            '2>/dev/null; done; true', timeout=300)
    took, out = fill(b, 32)
    suite.result(took == 32, 'no leak: with the 32 rules deleted, 32 can be '
                 'added again', out)
    # swp0's clsact deleted (its filters with it), then added back
    b.check('tc qdisc del dev swp0 clsact && tc qdisc add dev swp0 clsact && '
            'tc filter add dev swp0 ingress pref 49000 matchall skip_hw '
            'action pass')
    took, out = fill(b, 32)
    suite.result(took == 32, 'no leak: with swp0\'s clsact deleted, its '
                 '32 rules are freed', out)
    b.check('tc qdisc del dev swp0 clsact && tc qdisc add dev swp0 clsact && '
            'tc filter add dev swp0 ingress pref 49000 matchall skip_hw '
            'action pass')


def main():
    suite = Suite('flower')
    p = {n: Peer(n, MAC[n], IP[n]) for n in 'ABC'}
    extra = []
    for i, n in enumerate('ABC'):
        extra += p[n].netdev('p%d' % i)
    with Board('gnubee-pc1', dtb=dsa.DTB, extra=extra, nosmp=True) as b:
        b.wait_ready()
        b.check('%s ours %s' % (dsa.LOAD, ' '.join(PORTS)), timeout=120)
        b.check('ip link add br0 type bridge && '
                'for i in 0 1; do ip link set swp$i master br0 && '
                'ip link set swp$i up || exit 1; done && '
                'ip link set swp2 up && ip link set br0 up')
        b.check('(for i in $(seq 100); do bridge link show | grep -c "state '
                'forwarding" | grep -qx 2 && exit 0; sleep 0.1; done; '
                'bridge link show; exit 1)', timeout=60)
        b.check('tc qdisc add dev swp0 clsact && tc filter add dev swp0 '
                'ingress pref 49000 matchall skip_hw action pass')
        for peer in p.values():
            peer.answer = False
        # B's address learned on port 1 (A's frames to it then go there
        # alone), A's on port 0
        for n in 'BA':
            p[n].send(eth(BCAST, p[n].mac, ETYPE2, b'hello'.ljust(46, b'\0')))
        ok = p['A'].wait(lambda f: b'hello' in f and f[6:12] == MAC['B'], 10)
        suite.result(ok is not None, 'B\'s broadcast reaches A through br0')
        match_checks(suite, b, p)
        action_checks(suite, b, p)
        flag_checks(suite, b, p)
        refusal_checks(suite, b)
        capacity_checks(suite, b)
        dsa.no_oops(suite, b, 'ours')
    suite.qemu_log(b, 'ours: the board')


if __name__ == '__main__':
    main()
