#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ppe: flows routed and NATed by the MT7621's PPE, not by the CPU.

The emulated GB-PC1 as a router: host-side peer A on swp0 (the LAN,
192.0.2.0/24, 2001:db8:1::/64) and B on swp1 (the WAN, 198.51.100.0/24,
2001:db8:2::/64), IPv4 masqueraded out of swp1, and an nft flowtable
with `flags offload` on swp0 and swp1 (what OpenWrt's "hardware flow
offloading" sets up). With each driver set that offloads flows (PPE_SETS;
mainline's mtk_eth_soc first, the oracle the PPE model was written
against):
- a UDP flow A->B (192.0.2.10:5000 to 198.51.100.10:7000) with B's
  answer: conntrack shows it offloaded ([HW_OFFLOAD] in
  /proc/net/nf_conntrac.);
- after a burst that makes the PPE tell the driver the unbound entry's
  rate was reached (the driver binds it then), 1000 datagrams of A's reach
  B rewritten as the CPU would have (source address swp1's, the source
  port conntrack chose, TTL 63, the IPv4 and UDP checksums right, the
  MACs swp1's and B's), and a software-only tc filter's count at swp0's
  ingress (what the kernel received there) stands still: the CPU saw
  none of them (a negative check, counted apar.);
- the same back, B->A through the NAT: 1000 of B's reach A with the
  destination A's address and port again, swp1's ingress counter still;
- IPv6 routed (no NAT) A->B (2001:db8:1::10 port 5001 to 2001:db8:2::10
  port 7001): 1000 reach B with hop limit 63, checksum right, swp0 still;
- TCP A->B through the NAT (5002 to 7002): SYN, SYN-ACK and ACK through
  the CPU, then conntrack shows the connection offloaded; after a burst,
  1000 segments reach B rewritten with the TCP checksum right and the
  CPU sees none (negative); A's FIN reaches the CPU (the PPE hands it
  TCP FIN/SYN/RST) and B;
- the bound IPv4 flow leaves through swp1's QDMA queue (4), as its
  entry's IB2 names it (PSE_QOS, QID): with that queue's max rate at 200
  kbit/s (QTX_SCH written behind the driver), 500 datagrams take at
  least the time the rate gives them, all reach B, and the CPU sees none
  (broken once: the model sending bound frames to the GDMA directly:
  both sets' 500 arrived in 0.21 s against the rate's 1.36 s);
- a UDP flow A->B (5003 to 7003) NATed out of the WAN's VLAN (swp1.100,
  VLAN 100, B at 203.0.113.10 on it): offloaded, 1000 datagrams reach B
  with the 802.1Q tag the PPE pushes and rewritten as routed, 1000 of B's
  tagged ones reach A untagged through the NAT; the CPU sees none either
  way (negatives: swp0's counter, and swp1's for 802.1Q-tagged UDP, which
  the flow table would take on swp1 before swp1.100 sees it);
- a UDP flow A->B (5004 to 7004) NATed out of a PPPoE session on the WAN
  port (pppd's pppoe plugin in the guest, ppp0; B the access
  concentrator, tests/lib/pppoe.py, session 0x1234, 100.64.0.2 given to
  the guest): offloaded, 1000 datagrams reach B in the session with the
  header the PPE pushes, rewritten as routed; 1000 of B's in the session
  reach A without it; the CPU sees none either way (negatives: swp0's
  counter, and a software-only filter on swp1 for the session's IP).
  Broken once: the model not writing the PPPoE header (IB1 PPPOE):
  mainline's A->B case fails;
- a datagram of the bound IPv4 flow with TTL 1 reaches the CPU, which
  answers A with ICMP time exceeded;
- 2000 broken frames of the bound flows (cut short, wrong lengths and
  header lengths, TTL 0-2, bytes changed): QEMU stays up;
- `conntrack -D` of the IPv4 flow: the driver removes its entry, and A's
  datagrams reach the CPU again (swp0's ingress counter moves) and still
  reach B, through the kernel's own path. (Until the flow is offloaded
  anew: the flow table takes a UDP flow from its second datagram on, and
  ours binds it at once; mainline waits for the PPE's 30 a second, which
  20 datagrams 50 ms apart never reach.);
- ageing: the IPv6 flow idle for longer than mainline's UDP bind age
  (12 s, mtk_ppe_start()) plus the PPE's scan. Mainline lets the PPE age
  bound entries: the flow's next datagrams reach the CPU again (fewer
  than the bind rate, so it does not bind again). Ours does not: the
  flow table ends flows by the timestamps the PPE keeps, so the flow's
  datagrams still pass the CPU by (a negative check, counted apar.);
- swp1 down and up: the flow table tears the flows through it down, the
  driver their entries: the flow's next datagrams reach the CPU (until
  the flow table offloads it ane.);
- no WARNING/BUG/Oops in the guest; the QEMU log holds nothing unexpected.

(Broken once, the twenty-second session: ours' unbind not clearing the
PPE's entry cache: the conntrack -D, link down/up and conntrack -F cases
fail (the cached entry keeps forwarding); the model handing a bound
flow's TCP FIN on instead of to the CPU: mainline's FIN case fails.
Broken once: the flowtable without `flags offload` (ours): every
"offloaded" and "CPU saw none" check fails, the VLAN flow's too, its
datagrams still arriving through the CPU; the model's NAT rewrite
without the TCP/UDP checksum update
fails the A->B case, "B got 0 right of 1000"; binding skipped in the
model (rate never reached) fails the same case and the negative one,
"swp0 ingress +1100".)
"""

import os
import json
import random
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board  # noqa: E402
from board import dt_bootargs  # noqa: E402
from peer import Peer, csum, eth, ipv4, send_paced  # noqa: E402
import dsa  # noqa: E402
import flowtable  # noqa: E402
import pppoe  # noqa: E402
from tap import Suite  # noqa: E402

PPE_SETS = os.environ.get('PPE_SETS', 'mainline ours').split()
# The sets whose drivers bind flows when they come (table_full()):
# mainline's waits for 30 datagrams a second of each
FULL_SETS = ['ours']
PORTS = ['swp0', 'swp1']
MAC = {'A': bytes.fromhex('020000000a0a'), 'B': bytes.fromhex('020000000b0b')}
IP = {'A': '192.0.2.10', 'B': '198.51.100.10'}
IP6 = {'A': '2001:db8:1::10', 'B': '2001:db8:2::10'}
GUEST = {'swp0': ('192.0.2.1', '2001:db8:1::1'),
         'swp1': ('198.51.100.1', '2001:db8:2::1')}
N = 1000
# The WAN's VLAN (swp1.100), B's and the guest's addresses on it
VID = 100
WAN_VLAN = 'swp1.%d' % VID
IP_VLAN = {'B': '203.0.113.10', 'guest': '203.0.113.1'}
# A PPPoE session on the WAN port, B its access concentrator: the
# session id, B's address in it and the one B gives the guest (ppp0)
PPPOE_SID = 0x1234
IP_PPP = {'B': '100.64.0.1', 'guest': '100.64.0.2'}
PPPD = ('pppd plugin pppoe.so swp1 noauth noipdefault nodefaultroute '
        'noccp novj nobsdcomp nodeflate noaccomp nopcomp noproxyarp '
        'lcp-echo-interval 0 ifname ppp0 mtu 1492 mru 1492 nodetach '
        'logfile /tmp/pppd.log')
FUZZ = 2000
# Flows for the table's buckets to overflow (2 entries each, 8192)
FLOWS = 2000
FUZZ_SEED = 20
# mtk_ppe_start(): BIND_RATE 30 a second; a burst well past it
BURST = 100
# QTX_SCH of QDMA queue 4, swp1's (port 1 + 3): what the test writes there
# behind the driver, a max rate of 20 * 10^1 kbit/s without a burst
QTX_SCH_WAN = 0x1e100000 + 0x1800 + 4 * 0x10 + 4
QTX_SCH_RATE_BITS = 0x7ff | 1 << 30    # MAX_RATE fields, LEAKY_BUCKET_EN
QTX_SCH_SHAPED = 1 << 11 | 20 << 4 | 1  # MAX_RATE_EN, 200 kbit/s
SHAPED_BPS = 200e3
SHAPED_N = 500
# mtk_ppe_start(): BIND_AGE0's UDP delta, 12 s; the scan once a second
UDP_AGE = 12

NFT = flowtable.ruleset('ppe', PORTS, ('tcp', 'udp'),
                        ('swp1', WAN_VLAN, 'ppp0'))


def udp4(src, dst, sport, dport, payload):
    u = struct.pack('!HHHH', sport, dport, 8 + len(payload), 0) + payload
    pseudo = (socket.inet_aton(src) + socket.inet_aton(dst) +
              struct.pack('!BBH', 0, 17, len(u)))
    c = csum(pseudo + u) or 0xffff
    return ipv4(src, dst, 17, u[:6] + struct.pack('!H', c) + u[8:])


def tcp4(src, dst, sport, dport, seq, ack, flags, payload=b''):
    t = struct.pack('!HHIIBBHHH', sport, dport, seq, ack, 5 << 4, flags,
                    65535, 0, 0) + payload
    pseudo = (socket.inet_aton(src) + socket.inet_aton(dst) +
              struct.pack('!BBH', 0, 6, len(t)))
    return ipv4(src, dst, 6, t[:16] + struct.pack('!H', csum(pseudo + t)) +
                t[18:])


def udp6(src, dst, sport, dport, payload):
    s, d = socket.inet_pton(socket.AF_INET6, src), \
        socket.inet_pton(socket.AF_INET6, dst)
    u = struct.pack('!HHHH', sport, dport, 8 + len(payload), 0) + payload
    c = csum(s + d + struct.pack('!II', len(u), 17) + u) or 0xffff
    u = u[:6] + struct.pack('!H', c) + u[8:]
    return struct.pack('!IHBB', 0x60000000, len(u), 17, 64) + s + d + u


def parse(f):
    """An IPv4 or IPv6 UDP datagram's fields, or None: dst/src MAC, family,
    addresses, ports, TTL, whether every checksum is right, payload."""
    if len(f) < 14:
        return None
    etype = struct.unpack('!H', f[12:14])[0]
    if etype == 0x8100 and len(f) >= 18:
        d = parse(f[:12] + f[16:])
        if d is not None:
            d['vid'] = struct.unpack('!H', f[14:16])[0] & 0xfff
        return d
    if etype == pppoe.ETH_P_PPP_SES and len(f) >= 22 and \
            struct.unpack('!H', f[20:22])[0] == pppoe.PPP_IP:
        d = parse(f[:12] + b'\x08\x00' + f[22:])
        if d is not None:
            d['pppoe'] = struct.unpack('!H', f[16:18])[0]
        return d
    if etype == 0x0800 and len(f) >= 42 and f[23] == 17:
        ihl = (f[14] & 0xf) * 4
        tot = struct.unpack('!H', f[16:18])[0]
        ip, u = f[14:14 + ihl], f[14 + ihl:14 + tot]
        if len(u) < 8:
            return None
        ok = csum(ip) == 0
        if u[6:8] != b'\0\0':
            ok = ok and csum(ip[12:20] + struct.pack('!BBH', 0, 17, len(u)) +
                             u) == 0
        src, dst, ttl = socket.inet_ntoa(ip[12:16]), \
            socket.inet_ntoa(ip[16:20]), ip[8]
    elif etype == 0x86dd and len(f) >= 62 and f[20] == 17:
        plen = struct.unpack('!H', f[18:20])[0]
        u = f[54:54 + plen]
        if len(u) < 8:
            return None
        ok = csum(f[22:54] + struct.pack('!II', len(u), 17) + u) == 0
        src = socket.inet_ntop(socket.AF_INET6, f[22:38])
        dst = socket.inet_ntop(socket.AF_INET6, f[38:54])
        ttl = f[21]
    else:
        return None
    sport, dport = struct.unpack('!HH', u[:4])
    return {'dmac': f[:6], 'smac': f[6:12], 'src': src, 'dst': dst,
            'sport': sport, 'dport': dport, 'ttl': ttl, 'ok': ok,
            'data': u[8:], 'vid': None, 'pppoe': None}


def parse_tcp(f):
    """An IPv4 TCP segment's fields, or None."""
    if len(f) < 54 or f[12:14] != b'\x08\x00' or f[23] != 6:
        return None
    ihl = (f[14] & 0xf) * 4
    tot = struct.unpack('!H', f[16:18])[0]
    ip, t = f[14:14 + ihl], f[14 + ihl:14 + tot]
    ok = csum(ip) == 0 and csum(ip[12:20] + struct.pack('!BBH', 0, 6, len(t))
                                + t) == 0
    sport, dport, seq, ack = struct.unpack('!HHII', t[:12])
    return {'src': socket.inet_ntoa(ip[12:16]), 'sport': sport,
            'dst': socket.inet_ntoa(ip[16:20]), 'dport': dport, 'seq': seq,
            'ack': ack, 'flags': t[13], 'ttl': ip[8], 'ok': ok,
            'data': t[(t[12] >> 4) * 4:]}


class FlowPeer(Peer):
    """A Peer that keeps the UDP datagrams it receives, parsed."""

    def __init__(self, name, mac, ip):
        self.udp = []
        self.pppoe = None       # a pppoe.PPPoEServer answering for us
        super().__init__(name, mac, ip)

    def _answer(self, f):
        if self.pppoe is not None and self.pppoe.handle(f):
            return
        super()._answer(f)

    def received(self, frame):
        d = parse(frame) or parse_tcp(frame)
        if d is not None:
            self.udp.append(d)
            return
        super().received(frame)

    def take(self, pred, n, timeout):
        """Wait for @n datagrams matching @pred (from now on kept one.);
        return those that arrived."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                got = [d for d in self.udp if pred(d)]
                left = deadline - time.monotonic()
                if len(got) >= n or left <= 0:
                    return got
                self.cond.wait(min(left, 0.2))

    def clear(self):
        with self.cond:
            self.udp = []


def stat(b, dev, proto='udp'):
    """The UDP datagrams the kernel received on @dev: software-only tc
    filters at its ingress count them. (Not the netdev's RX counter:
    ours' switch driver reports the switch port's own MIB there, which
    counts every frame the port received, the PPE's too.)"""
    out = json.loads(b.check('tc -s -j filter show dev %s ingress' % dev))
    return sum(f['options']['actions'][0]['stats']['packets'] for f in out
               if 'options' in f and
               (f['options'].get('keys', {}).get('ip_proto') == proto or
                proto == 'pppoe' and 'pppoe_sid' in f['options']['keys']))


def mac_of(b, dev):
    return bytes.fromhex(b.check('cat /sys/class/net/%s/address'
                                 % dev).strip().replace(':', ''))


def setup(b, p):
    for dev, (ip, ip6) in GUEST.items():
        b.check('ip addr add %s/24 dev %s && ip -6 addr add %s/64 dev %s '
                'nodad && ip link set %s up' % (ip, dev, ip6, dev, dev))
    if not dsa.carrier(b, PORTS):
        raise RuntimeError('no carrier on %s' % ' '.join(PORTS))
    b.check('sysctl -qw net.ipv4.ip_forward=1 '
            'net.ipv6.conf.all.forwarding=1')
    # Static neighbours: the peers answer ARP, not neighbour solicitation
    for n, dev in (('A', 'swp0'), ('B', 'swp1')):
        b.check('ip -6 neigh replace %s lladdr %s dev %s nud permanent'
                % (IP6[n], p[n].mac.hex(':'), dev))
        b.check('ip neigh replace %s lladdr %s dev %s nud permanent'
                % (IP[n], p[n].mac.hex(':'), dev))
    # The WAN's VLAN: B on it too
    b.check('ip link add link swp1 name %s type vlan id %d && ip addr add '
            '%s/24 dev %s && ip link set %s up && ip neigh replace %s lladdr '
            '%s dev %s nud permanent'
            % (WAN_VLAN, VID, IP_VLAN['guest'], WAN_VLAN, WAN_VLAN,
               IP_VLAN['B'], p['B'].mac.hex(':'), WAN_VLAN))
    b.check("cat > /tmp/ppe.nft <<'EOF'\n%sEOF\nnft -f /tmp/ppe.nft" % NFT)
    # The flows' datagrams the kernel receives (no MLD, no ARP)
    for dev in PORTS:
        b.check('tc qdisc add dev %s clsact' % dev)
        for proto in ('ip', 'ipv6'):
            for l4 in ('udp', 'tcp'):
                b.check('tc filter add dev %s ingress protocol %s flower '
                        'skip_hw ip_proto %s action pass' % (dev, proto, l4))
    # and the WAN VLAN's, on swp1 (the flow table takes them there, before
    # swp1.100 would see them)
    b.check('tc filter add dev swp1 ingress protocol 802.1q flower skip_hw '
            'vlan_id %d vlan_ethtype ip ip_proto udp action pass' % VID)
    # and the PPPoE session's
    b.check('tc filter add dev swp1 ingress protocol ppp_ses flower skip_hw '
            'pppoe_sid %d ppp_proto ip action pass' % PPPOE_SID)


def conntrack(b):
    return b.check('cat /proc/net/nf_conntrack; true')


def offloaded(b, what, timeout=10):
    """Wait until conntrack's entry matching @what says [HW_OFFLOAD]."""
    deadline = time.monotonic() + timeout
    while True:
        lines = [ln for ln in conntrack(b).splitlines() if what in ln]
        if any('[HW_OFFLOAD]' in ln for ln in lines) or \
                time.monotonic() > deadline:
            return lines
        time.sleep(0.5)


def each(peer, frames):
    """Send @frames from @peer, 25 at a time 10 ms apart (2500 a second):
    what QEMU's socket takes on a loaded host, and past the PPE's bind
    rate."""
    for i in range(0, len(frames), 25):
        for f in frames[i:i + 25]:
            peer.send(f)
        time.sleep(0.01)


def through_ppe(b, tx, rx_peer, bind, frames, pred, dev, proto='udp'):
    """@bind from @tx (past the PPE's bind rate), then @frames: what
    @rx_peer got of them (@pred), and what the kernel counted at @dev's
    ingress meanwhile."""
    each(tx, bind)
    time.sleep(1.5)
    rx0 = stat(b, dev, proto)
    rx_peer.clear()
    each(tx, frames)
    got = rx_peer.take(pred, len(frames), 30)
    time.sleep(0.5)
    return got, stat(b, dev, proto) - rx0


def flow(suite, b, p, name, mac, fam, src, dst, sport, dport, nat):
    """A's flow to B through the PPE, and back if @nat (IPv4) is set."""
    a, bb = p['A'], p['B']
    mk = udp4 if fam == 4 else udp6
    etype = 0x0800 if fam == 4 else 0x86dd
    tag = 'IPv%d' % fam

    def a_frame(data):
        return eth(mac['swp0'], a.mac, etype,
                   mk(src, dst, sport, dport, data))

    # Open the flow: A's first datagram, B's answer, A's second
    a.clear()
    bb.clear()
    a.send(a_frame(b'open'))
    got = bb.take(lambda d: d['data'] == b'open', 1, 10)
    if not got:
        suite.fail('%s: %s: A\'s first datagram reaches B through the '
                   'router' % (name, tag), 'B got nothing')
        return None
    first = got[0]
    bb.send(eth(mac['swp1'], bb.mac, etype,
                mk(dst, first['src'], dport, first['sport'], b'answer')))
    if not a.take(lambda d: d['data'] == b'answer', 1, 10):
        suite.fail('%s: %s: B\'s answer reaches A' % (name, tag),
                   'A got nothing')
        return None
    a.send(a_frame(b'again'))
    lines = offloaded(b, 'dport=%d' % dport)
    suite.result(any('[HW_OFFLOAD]' in ln for ln in lines),
                 '%s: %s: conntrack shows the UDP flow A->B offloaded '
                 '([HW_OFFLOAD])' % (name, tag), '\n'.join(lines) or
                 conntrack(b))

    # Bind: a burst past the bind rate, then the measured datagrams
    got, rx = through_ppe(b, a, bb, [a_frame(b'bind')] * BURST,
                          [a_frame(b'offloaded')] * N,
                          lambda d: d['data'] == b'offloaded', 'swp0')
    want_src = GUEST['swp1'][0] if nat else src
    right = [d for d in got if d['src'] == want_src and d['dst'] == dst and
             d['sport'] == first['sport'] and d['dport'] == dport and
             d['ttl'] == 63 and d['ok'] and d['smac'] == mac['swp1'] and
             d['dmac'] == bb.mac]
    suite.result(len(right) == N,
                 '%s: %s: %d datagrams of A\'s reach B rewritten as routed%s '
                 '(addresses, ports, TTL 63, checksums, MACs)'
                 % (name, tag, N, ' and NATed' if nat else ''),
                 'B got %d right of %d (%d in all); first: %r'
                 % (len(right), N, len(got), got[:1]))
    suite.result(rx == 0, '%s: %s: (negative) the CPU saw none of them: '
                 'swp0\'s ingress counter stands still' % (name, tag),
                 'swp0 ingress +%d' % rx)
    if not nat:
        return first

    # Back through the NAT: B to the address and port A's flow has there
    def b_frame(data):
        return eth(mac['swp1'], bb.mac, etype,
                   mk(dst, first['src'], dport, first['sport'], data))

    got, rx = through_ppe(b, bb, a, [b_frame(b'bind')] * BURST,
                          [b_frame(b'back')] * N,
                          lambda d: d['data'] == b'back', 'swp1')
    right = [d for d in got if d['src'] == dst and d['dst'] == src and
             d['sport'] == dport and d['dport'] == sport and
             d['ttl'] == 63 and d['ok'] and d['smac'] == mac['swp0'] and
             d['dmac'] == a.mac]
    suite.result(len(right) == N,
                 '%s: %s: %d datagrams of B\'s back through the NAT reach A '
                 'with its address and port again' % (name, tag, N),
                 'A got %d right of %d (%d in all); first: %r'
                 % (len(right), N, len(got), got[:1]))
    suite.result(rx == 0, '%s: %s: (negative) the CPU saw none of those: '
                 'swp1\'s ingress counter stands still' % (name, tag),
                 'swp1 ingress +%d' % rx)
    return first


def tagged(f, vid):
    """Frame @f with an 802.1Q tag of VLAN @vid."""
    return f[:12] + struct.pack('!HH', 0x8100, vid) + f[12:]


class Wan:
    """A WAN encapsulation for wan_flow(): its name in the results (@tag),
    the flow's ports, B's address in it and the guest's, the field of
    parse() that shows it (@key) and its value on the way out (@val),
    @wrap (B's plain frame -> the encapsulated one), the software-only
    counter stat() reads for B's frames at swp1 (@back_proto), and what
    the results say of it."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def wan_flow(suite, b, p, mac, name, w):
    """A UDP flow A->B through the NAT out of the WAN encapsulation @w (a
    Wan): bound, its datagrams reach B encapsulated by the PPE, and B's
    back lose it; the CPU sees none. False if the flow did not open."""
    a, bb = p['A'], p['B']
    dst = w.ip['B']

    def a_frame(data):
        return eth(mac['swp0'], a.mac, 0x0800,
                   udp4(IP['A'], dst, w.sport, w.dport, data))

    a.clear()
    bb.clear()
    a.send(a_frame(b'wan-open'))
    got = bb.take(lambda d: d['data'] == b'wan-open', 1, 10)
    if not got or got[0][w.key] != w.val:
        suite.fail('%s: %s: A\'s first datagram reaches B %s through the '
                   'router' % (name, w.tag, w.where), 'B got %r' % got)
        return False
    first = got[0]

    def b_frame(data):
        return w.wrap(eth(mac['swp1'], bb.mac, 0x0800,
                          udp4(dst, first['src'], w.dport, first['sport'],
                               data)))

    bb.send(b_frame(b'wan-answer'))
    if not a.take(lambda d: d['data'] == b'wan-answer', 1, 10):
        suite.fail('%s: %s: B\'s answer reaches A' % (name, w.tag),
                   'A got nothing')
        return False
    a.send(a_frame(b'wan-again'))
    lines = offloaded(b, 'dport=%d' % w.dport)
    suite.result(any('[HW_OFFLOAD]' in ln for ln in lines),
                 '%s: %s: conntrack shows the UDP flow A->B out of %s '
                 'offloaded ([HW_OFFLOAD])' % (name, w.tag, w.dev),
                 '\n'.join(lines) or conntrack(b))
    got, rx = through_ppe(b, a, bb, [a_frame(b'wan-bind')] * BURST,
                          [a_frame(b'wan-offloaded')] * N,
                          lambda d: d['data'] == b'wan-offloaded', 'swp0')
    right = [d for d in got if d[w.key] == w.val and
             all(d[k] is None for k in ('vid', 'pppoe') if k != w.key) and
             d['src'] == w.ip['guest'] and d['dst'] == dst and
             d['sport'] == first['sport'] and d['dport'] == w.dport and
             d['ttl'] == 63 and d['ok'] and d['smac'] == mac['swp1'] and
             d['dmac'] == bb.mac]
    suite.result(len(right) == N,
                 '%s: %s: %d datagrams of A\'s reach B %s, routed and NATed'
                 % (name, w.tag, N, w.out),
                 'B got %d right of %d (%d in all); first: %r'
                 % (len(right), N, len(got), got[:1]))
    suite.result(rx == 0, '%s: %s: (negative) the CPU saw none of them: '
                 'swp0\'s ingress counter stands still' % (name, w.tag),
                 'swp0 ingress +%d' % rx)
    got, rx = through_ppe(b, bb, a, [b_frame(b'wan-bind')] * BURST,
                          [b_frame(b'wan-back')] * N,
                          lambda d: d['data'] == b'wan-back', 'swp1',
                          w.back_proto)
    right = [d for d in got if d['vid'] is None and d['pppoe'] is None and
             d['src'] == dst and d['dst'] == IP['A'] and
             d['sport'] == w.dport and d['dport'] == w.sport and
             d['ttl'] == 63 and d['ok'] and d['smac'] == mac['swp0'] and
             d['dmac'] == a.mac]
    suite.result(len(right) == N,
                 '%s: %s: %d datagrams of B\'s %s' % (name, w.tag, N, w.back),
                 'A got %d right of %d (%d in all); first: %r'
                 % (len(right), N, len(got), got[:1]))
    suite.result(rx == 0, '%s: %s: (negative) the CPU saw none of those: '
                 'swp1\'s ingress counter%s stands still'
                 % (name, w.tag, w.counter), 'swp1 ingress +%d' % rx)
    return True


def vlan_flow(suite, b, p, mac, name):
    """A UDP flow A->B (5003 to 7003) through the NAT out of the WAN's VLAN
    (swp1.100): the PPE pushes the 802.1Q tag, B's lose it."""
    wan_flow(suite, b, p, mac, name, Wan(
        tag='VLAN', sport=5003, dport=7003, ip=IP_VLAN, key='vid', val=VID,
        wrap=lambda f: tagged(f, VID), back_proto='udp', dev=WAN_VLAN,
        where='on VLAN %d' % VID,
        out='tagged with VLAN %d (pushed by the PPE)' % VID,
        back='on VLAN %d reach A untagged through the NAT' % VID,
        counter=''))


def qdma_queue(suite, b, p, mac, name):
    """The bound IPv4 flow A->B leaves through swp1's QDMA queue, as its
    entry's IB2 names it (PSE_QOS, QID 4): with that queue's max rate at
    200 kbit/s (QTX_SCH written behind the driver), SHAPED_N datagrams
    take at least the time the rate gives them, and all arrive."""
    a, bb = p['A'], p['B']
    old = int(b.check('devmem %#x 32' % QTX_SCH_WAN), 16)
    b.check('devmem %#x 32 %#x' % (QTX_SCH_WAN, (old & ~QTX_SCH_RATE_BITS) |
                                   QTX_SCH_SHAPED))
    frames = [eth(mac['swp0'], a.mac, 0x0800,
                  udp4(IP['A'], IP['B'], 5000, 7000, b'shaped%04d' % i))
              for i in range(SHAPED_N)]
    bb.clear()
    rx0 = stat(b, 'swp0')
    t0 = time.monotonic()
    each(a, frames)
    got = bb.take(lambda d: d['data'].startswith(b'shaped'), SHAPED_N, 30)
    took = time.monotonic() - t0
    b.check('devmem %#x 32 %#x' % (QTX_SCH_WAN, old))
    rx = stat(b, 'swp0') - rx0
    # What the queue's rate counts: the frame out of the PPE (with the MTK
    # tag) and its FCS
    want = SHAPED_N * (len(frames[0]) + 4 + 4) * 8 / SHAPED_BPS
    suite.comment('%s: %d datagrams through swp1\'s queue at 200 kbit/s: %d '
                  'at B in %.2f s (the rate\'s %.2f s)'
                  % (name, SHAPED_N, len(got), took, want))
    suite.result(len(got) == SHAPED_N and took >= 0.9 * want and rx == 0,
                 '%s: IPv4: the bound flow leaves through swp1\'s QDMA queue '
                 '(4): at its max rate of 200 kbit/s, %d datagrams take at '
                 'least the %.2f s the rate gives them, all reach B, and the '
                 'CPU sees none' % (name, SHAPED_N, want),
                 'B got %d of %d in %.2f s; swp0 ingress +%d'
                 % (len(got), SHAPED_N, took, rx))


def pppoe_flow(suite, b, p, mac, name):
    """A UDP flow A->B (5004 to 7004) NATed out of a PPPoE session on the
    WAN port (pppd's ppp0 in the guest, B the access concentrator): bound,
    its datagrams reach B with the PPPoE session header the PPE pushes,
    and B's back lose it; the CPU sees none."""
    bb = p['B']
    server = pppoe.PPPoEServer(bb, PPPOE_SID, IP_PPP['B'], IP_PPP['guest'])
    bb.pppoe = server
    b.check('echo > /etc/ppp/options && (%s >/dev/null 2>&1 </dev/null &)'
            % PPPD)
    up = server.opened.wait(20)
    st, out = b.run('(for i in $(seq 50); do ip -4 addr show ppp0 '
                    '2>/dev/null | grep -q "inet %s" && exit 0; sleep 0.2; '
                    'done; exit 1)' % IP_PPP['guest'], timeout=30)
    if not up or st:
        why = b.run('ip addr show ppp0; tail -20 /tmp/pppd.log')[1]
        suite.fail('%s: PPPoE: pppd brings up ppp0 with %s from B'
                   % (name, IP_PPP['guest']),
                   'IPCP opened %s; %s' % (up, why))
        bb.pppoe = None
        return

    wan_flow(suite, b, p, mac, name, Wan(
        tag='PPPoE', sport=5004, dport=7004, ip=IP_PPP, key='pppoe',
        val=PPPOE_SID, back_proto='pppoe', dev='ppp0',
        wrap=lambda f: pppoe.pppoe_session(f[:6], f[6:12], PPPOE_SID,
                                           pppoe.PPP_IP, f[14:]),
        where='in the session',
        out='in the session (its header pushed by the PPE)',
        back='in the session reach A without its header, through the NAT',
        counter=' of the session'))
    b.run('pkill pppd; for i in $(seq 50); do [ -e /sys/class/net/ppp0 ] '
          '|| break; sleep 0.2; done')
    bb.pppoe = None


def tcp_flow(suite, b, p, mac, name):
    """A TCP connection A->B (5002 to 7002) through the NAT: offloaded
    once established, 1000 segments past the CPU with the TCP checksum
    right, then A's FIN to the CPU (the flow table ends the flow) and B."""
    a, bb = p['A'], p['B']
    SYN, ACK, FIN, PSH = 0x02, 0x10, 0x01, 0x08

    def a_seg(seq, ack, flags, data=b''):
        return eth(mac['swp0'], a.mac, 0x0800,
                   tcp4(IP['A'], IP['B'], 5002, 7002, seq, ack, flags, data))

    def b_got(pred, n, timeout=10):
        return bb.take(lambda d: 'seq' in d and d['dport'] == 7002 and
                       pred(d), n, timeout)

    bb.clear()
    a.send(a_seg(1000, 0, SYN))
    syn = b_got(lambda d: d['flags'] == SYN, 1)
    if not syn:
        suite.fail('%s: TCP: A\'s SYN reaches B' % name, 'B got nothing')
        return
    nat = syn[0]
    bb.send(eth(mac['swp1'], bb.mac, 0x0800,
                tcp4(IP['B'], nat['src'], 7002, nat['sport'], 5000, 1001,
                     SYN | ACK)))
    if not a.take(lambda d: 'seq' in d and d['flags'] == SYN | ACK, 1, 10):
        suite.fail('%s: TCP: B\'s SYN-ACK reaches A' % name, 'A got nothing')
        return
    a.send(a_seg(1001, 5001, ACK))
    a.send(a_seg(1001, 5001, ACK | PSH, b'hello'))
    lines = offloaded(b, 'dport=7002')
    suite.result(any('[HW_OFFLOAD]' in ln for ln in lines),
                 '%s: TCP: conntrack shows the established connection '
                 'offloaded ([HW_OFFLOAD])' % name, '\n'.join(lines))
    seq = 1006
    segs = []
    for i in range(BURST + N):
        segs.append(a_seg(seq, 5001, ACK | PSH, b'%08d' % i))
        seq += 8
    got, rx = through_ppe(b, a, bb, segs[:BURST], segs[BURST:],
                          lambda d: 'seq' in d and d['dport'] == 7002 and
                          d['flags'] == ACK | PSH, 'swp0', 'tcp')
    right = [d for d in got if d['src'] == GUEST['swp1'][0] and
             d['sport'] == nat['sport'] and d['ttl'] == 63 and d['ok']]
    suite.result(len(right) == N, '%s: TCP: %d segments of A\'s reach B '
                 'rewritten (address, port, TTL 63, TCP checksum right)'
                 % (name, N), 'B got %d right of %d (%d in all)'
                 % (len(right), N, len(got)))
    suite.result(rx == 0, '%s: TCP: (negative) the CPU saw none of them'
                 % name, 'swp0 ingress +%d' % rx)
    rx0 = stat(b, 'swp0', 'tcp')
    bb.clear()
    a.send(a_seg(seq, 5001, FIN | ACK))
    fin = b_got(lambda d: d['flags'] & FIN, 1)
    rx = stat(b, 'swp0', 'tcp') - rx0
    suite.result(bool(fin) and rx == 1, '%s: TCP: A\'s FIN reaches the CPU '
                 '(the PPE gives it the TCP FIN/SYN/RST) and B' % name,
                 'swp0 ingress +%d, B got %d' % (rx, len(fin)))


def to_cpu_again(b, p, mac, fam, src, dst, sport, dport, n, gap):
    """@n datagrams of A's, @gap seconds apart: (swp0's ingress counter's
    change, how many reached B)."""
    mk = udp4 if fam == 4 else udp6
    etype = 0x0800 if fam == 4 else 0x86dd
    p['B'].clear()
    rx0 = stat(b, 'swp0')
    for _ in range(n):
        p['A'].send(eth(mac['swp0'], p['A'].mac, etype,
                        mk(src, dst, sport, dport, b'cpu')))
        time.sleep(gap)
    got = p['B'].take(lambda d: d['data'] == b'cpu', n, 10)
    time.sleep(0.5)
    return stat(b, 'swp0') - rx0, len(got)


def ttl_one(suite, b, p, mac, name):
    """A datagram of the bound IPv4 flow with TTL 1: the PPE gives it to
    the CPU, which answers A with ICMP time exceeded."""
    a = p['A']
    f = bytearray(eth(mac['swp0'], a.mac, 0x0800,
                      udp4(IP['A'], IP['B'], 5000, 7000, b'ttl')))
    f[22] = 1
    f[24:26] = b'\0\0'
    f[24:26] = struct.pack('!H', csum(bytes(f[14:34])))
    rx0 = stat(b, 'swp0')
    since = a.mark()
    a.send(bytes(f))
    rep = a.wait(lambda r: r[12:14] == b'\x08\x00' and r[23] == 1 and
                 r[34] == 11, 10, since)
    rx = stat(b, 'swp0') - rx0
    suite.result(rep is not None and rx == 1,
                 '%s: IPv4: a datagram of the bound flow with TTL 1 reaches '
                 'the CPU, which answers A "time exceeded"' % name,
                 'swp0 ingress +%d; ICMP %s' % (rx, 'got' if rep else 'none'))


def fuzz_bound(suite, b, p, mac, name):
    """Broken frames of the bound flows (cut short, lengths, header
    lengths, TTLs, bytes changed): QEMU stays up."""
    rng = random.Random(FUZZ_SEED)
    a = p['A']
    base = [eth(mac['swp0'], a.mac, 0x0800,
                udp4(IP['A'], IP['B'], 5000, 7000, b'f' * 40)),
            eth(mac['swp0'], a.mac, 0x86dd,
                udp6(IP6['A'], IP6['B'], 5001, 7001, b'f' * 40))]
    frames = []
    for _ in range(FUZZ):
        f = bytearray(rng.choice(base))
        kind = rng.randrange(5)
        if kind == 0:
            f = f[:rng.randrange(14, len(f))]
        elif kind == 1:
            at = 16 if f[12:14] == b'\x08\x00' else 18
            f[at:at + 2] = struct.pack('!H', rng.getrandbits(16))
        elif kind == 2:
            f[14] = (f[14] & 0xf0) | rng.randrange(16)
        elif kind == 3:
            f[22 if f[12:14] == b'\x08\x00' else 21] = rng.choice([0, 1, 2])
        else:
            for _ in range(rng.randrange(1, 6)):
                f[rng.randrange(14, len(f))] = rng.getrandbits(8)
        frames.append((a, bytes(f)))
    send_paced(frames)
    time.sleep(2)
    alive = b.proc.poll() is None
    suite.result(alive, '%s: %d broken frames of the bound flows (seed %d): '
                 'QEMU stays up' % (name, FUZZ, FUZZ_SEED),
                 'QEMU exited %s' % b.proc.returncode)
    return alive


def hw_count(b, dport):
    return int(b.check('grep dport=%d /proc/net/nf_conntrack | '
                       'grep -c HW_OFFLOAD; true' % dport).strip() or 0)


def table_full(suite, b, p, mac, name):
    """FLOWS flows at once: the PPE's two-entry buckets overflow, the flows
    left out stay in the kernel's flow table, nothing is lost; conntrack -F
    takes every entry away; kmemleak finds nothing."""
    a, bb = p['A'], p['B']
    dport = 7002

    def a_frames(data):
        return [eth(mac['swp0'], a.mac, 0x0800,
                    udp4(IP['A'], IP['B'], 10000 + i, dport, data))
                for i in range(FLOWS)]

    def b_got(data):
        return bb.take(lambda d: d['dport'] == dport and d['data'] == data,
                       FLOWS, 120)

    dsa.kmemleak_start(b)
    bb.clear()
    a.clear()
    each(a, a_frames(b'open'))
    got = b_got(b'open')
    each(bb, [eth(mac['swp1'], bb.mac, 0x0800,
                  udp4(IP['B'], d['src'], dport, d['sport'], b'answer'))
              for d in got])
    answered = a.take(lambda d: d['data'] == b'answer', len(got), 120)
    each(a, a_frames(b'again'))
    time.sleep(5)
    hw = hw_count(b, dport)
    suite.result(len(got) == FLOWS and len(answered) == FLOWS and
                 0 < hw <= FLOWS,
                 '%s: %d UDP flows through the NAT at once: conntrack shows '
                 'them offloaded (one direction in the PPE at least), as '
                 'many as the buckets take' % (name, FLOWS),
                 'B got %d opening datagrams, A %d answers; %d offloaded'
                 % (len(got), len(answered), hw))

    rx0 = stat(b, 'swp0')
    bb.clear()
    each(a, a_frames(b'each'))
    got = b_got(b'each')
    rx = stat(b, 'swp0') - rx0
    right = [d for d in got if d['src'] == GUEST['swp1'][0] and d['ok'] and
             d['ttl'] == 63]
    suite.result(len(right) == FLOWS and 0 < rx < FLOWS,
                 '%s: a datagram of each flow: all reach B, the PPE\'s '
                 'through its entries, those of flows whose bucket was full '
                 'through the CPU (the buckets took some and not all)'
                 % name, 'B got %d right of %d; swp0 ingress +%d'
                 % (len(right), FLOWS, rx))

    out = b.check('conntrack -F 2>&1; true')
    time.sleep(3)
    rx0 = stat(b, 'swp0')
    bb.clear()
    each(a, a_frames(b'flushed'))
    got = b_got(b'flushed')
    rx = stat(b, 'swp0') - rx0
    suite.result(len(got) == FLOWS and rx == FLOWS,
                 '%s: after conntrack -F, the driver took every entry away: '
                 'each flow\'s next datagram reaches the CPU, and B' % name,
                 'swp0 ingress +%d, B got %d of %d; %s'
                 % (rx, len(got), FLOWS, out.strip()))
    b.check('conntrack -F 2>&1; true')
    time.sleep(3)
    leaks = dsa.kmemleak_leaks(b)
    suite.result(not leaks, '%s: kmemleak empty after the flows came and '
                 'went' % name, leaks[:3000])


def one_set(suite, driver_set):
    name = driver_set
    p = {n: FlowPeer(n, MAC[n], IP[n]) for n in 'AB'}
    extra = p['A'].netdev('pa') + p['B'].netdev('pb')
    append = dt_bootargs(dsa.DTB)
    if name in FULL_SETS:
        append += ' kmemleak=on'
    with Board('gnubee-pc1', dtb=dsa.DTB, extra=extra, nosmp=True,
               append=append) as b:
        b.wait_ready()
        b.check('%s %s %s' % (dsa.LOAD, driver_set, ' '.join(PORTS)),
                timeout=120)
        setup(b, p)
        mac = {dev: mac_of(b, dev) for dev in PORTS}
        flow(suite, b, p, name, mac, 4, IP['A'], IP['B'], 5000, 7000, True)
        qdma_queue(suite, b, p, mac, name)
        flow(suite, b, p, name, mac, 6, IP6['A'], IP6['B'], 5001, 7001,
             False)
        tcp_flow(suite, b, p, mac, name)
        vlan_flow(suite, b, p, mac, name)
        pppoe_flow(suite, b, p, mac, name)
        ttl_one(suite, b, p, mac, name)
        if not fuzz_bound(suite, b, p, mac, name):
            return

        # conntrack -D: the driver's entry goes, the CPU sees them again
        out = b.check('conntrack -D -p udp --orig-port-dst 7000 2>&1; true')
        time.sleep(3)
        rx, got = to_cpu_again(b, p, mac, 4, IP['A'], IP['B'], 5000, 7000,
                               20, 0.05)
        suite.result(rx >= 1 and got == 20,
                     '%s: IPv4: after conntrack -D, A\'s datagrams reach the '
                     'CPU again (swp0\'s ingress counter moves) and B' % name,
                     'swp0 ingress +%d, B got %d of 20; conntrack -D: %s'
                     % (rx, got, out.strip()))

        # Ageing: the IPv6 flow idle past mainline's bind age, from a last
        # datagram on (well inside the flow table's 30 s)
        p['B'].clear()
        p['A'].send(eth(mac['swp0'], p['A'].mac, 0x86dd,
                        udp6(IP6['A'], IP6['B'], 5001, 7001, b'last')))
        p['B'].take(lambda d: d['data'] == b'last', 1, 10)
        time.sleep(UDP_AGE + 3)
        rx, got = to_cpu_again(b, p, mac, 6, IP6['A'], IP6['B'], 5001, 7001,
                               5, 0.2)
        if name == 'mainline':
            suite.result(rx >= 5 and got == 5,
                         '%s: IPv6: idle past the PPE\'s UDP bind age (%d s), '
                         'the flow\'s datagrams reach the CPU again and B'
                         % (name, UDP_AGE), 'swp0 ingress +%d, B got %d of 5'
                         % (rx, got))
        else:
            suite.result(got == 5,
                         '%s: IPv6: idle for %d s (longer than mainline\'s '
                         'bind age), the flow\'s datagrams still reach B'
                         % (name, UDP_AGE + 3), 'B got %d of 5' % got)
            suite.result(rx == 0,
                         '%s: IPv6: (negative) the PPE did not age the flow '
                         'out while the flow table keeps it: swp0\'s '
                         'ingress counter stands still' % name,
                         'swp0 ingress +%d' % rx)

        # Link down and up on the WAN port: the flow table tears its
        # flows down, the driver their entries
        b.check('ip link set swp1 down && ip link set swp1 up')
        dsa.carrier(b, ['swp1'])
        # (Down took swp1's IPv6 address and neighbours with it)
        b.check('ip -6 addr replace %s/64 dev swp1 nodad && ip -6 neigh '
                'replace %s lladdr %s dev swp1 nud permanent'
                % (GUEST['swp1'][1], IP6['B'], p['B'].mac.hex(':')))
        time.sleep(2)
        rx, got = to_cpu_again(b, p, mac, 6, IP6['A'], IP6['B'], 5001, 7001,
                               20, 0.05)
        suite.result(rx >= 1 and got == 20,
                     '%s: IPv6: after swp1 went down and up, the flow\'s '
                     'datagrams reach the CPU again (until it is offloaded '
                     'anew) and B' % name, 'swp0 ingress +%d, B got %d of 20'
                     % (rx, got))
        if name in FULL_SETS:
            table_full(suite, b, p, mac, name)
        dsa.no_oops(suite, b, name)
    suite.qemu_log(b, '%s: the board' % name)


def main():
    suite = Suite('ppe')
    for s in PPE_SETS:
        one_set(suite, s)
    return 1 if suite.failed else 0


if __name__ == '__main__':
    sys.exit(main())
