#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gmac-net: the RT3883's and RT2880's frame engines under our ralink_fe,
with a host peer through their GMAC's external PHY.

The RT3883 and RT2880 evaluation boards have no switch: the frame
engine's GDMA1 leads to a gigabit MAC with a PHY outside the SoC
(ralink_fe.c's maps "rt3883" and "rt2880", ralink_phy.c's generic gigabit
PHY on the frame engine's MDIO; fe_rt2880.c: the RT305x's older map, the
MDIO master at 0x00/0x04). The board's one NIC is on a QEMU hub with a
host peer A (a UDP socket) and QEMU's user networking. Checked, per board:
- ralink_fe binds the frame engine; eth0 comes up, on the PHY phylib
  found on the frame engine's MDIO bus (the model's ID 0x00000010, which
  no PHY driver claims: the Generic PHY), at 1000 Mbit/s full duplex
  after autonegotiation, and GMAC1 is forced to that in MDIO_CFG;
- the link follows the NIC's backend (set_link off: the carrier goes
  through phylib's polling of BMSR; on: it comes back after the
  autonegotiation);
- A pings the board and the board pings A;
- TX VLAN insertion through the 16-entry VLAN table (esw_net's check);
- 10,000 echo requests from A, each answered with its data, and GDMA1's
  counters (through the driver) count them;
- checksum offload where the SoC has it: the RT3883 offers RX and IPv4
  TX checksums (`ethstats -k`, as `ethtool -k` prints them), a UDP
  datagram with a wrong checksum is not passed as checked and GDMA1
  counts it; the RT2880 offers neither (off [fixed]: the driver does not
  claim them), the kernel checks the datagrams itself and GDMA1 counts
  nothing (and the QEMU log verdict fails if the driver ever enables the
  model's checksum registers or asks a descriptor for checksums there);
- a TCP transfer each way with a host server behind the user networking
  (4 MiB down, 4 MiB up; on the RT3883 with the frame engine computing
  the TX checksums);
- random frames from A (model_net's generator), then A and the board
  ping each other; the GMAC counts the runts and overlong ones it drops
  (GDMA1's RX short and long counters, through the driver);
- no Oops; the QEMU log holds nothing unexpected.
"""

import http.server
import os
import random
import re
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board, dmesg_and_poweroff  # noqa: E402
from peer import Peer, send_paced  # noqa: E402
from tap import Prefixed, Suite  # noqa: E402
sys.path.insert(0, os.path.dirname(__file__))
from esw_net import (FRAMES, IP_A, IP_BOARD, MAC_A, WINDOW,  # noqa: E402
                     Blobs, driver_stats, echo_flood, features,
                     tcp_both_ways, udp_checksums, vlan_insertion)
from model_net import FUZZ_SEED, fuzz_frame  # noqa: E402

BOARDS = ('rt3883-eval', 'rt2880-eval')
# The frame engine's base, the driver's message when it binds, and whether
# the SoC has checksum offload (OpenWrt's soc_rt3883.c, soc_rt2880.c)
FE = {'rt3883-eval': 0x10100000, 'rt2880-eval': 0x00400000}
BIND = {'rt3883-eval': r'ralink_fe 10100000\.ethernet: RT3883 frame engine, '
                       r'IRQ 5',
        'rt2880-eval': r'ralink_fe 400000\.ethernet: RT2880 frame engine, '
                       r'IRQ 5'}
CSUM = {'rt3883-eval': True, 'rt2880-eval': False}
MDIO_CFG = 0x04
# MDIO_CFG's forced mode: FRC_EN, 1000 Mbit/s, full duplex
MDIO_CFG_FORCED_1000FD = 0xd000
VID_TABLE = 0xa8
# The model's generic PHY (ralink_phy.c): no vendor's OUI, model 1
PHY_ID = '0x00000010'
FUZZ = 5000
GMAC_MIN, GMAC_MAX = 14, 1536


def carrier_within(b, want, secs):
    """eth0's carrier once it is @want or @secs have passed."""
    return b.check('for i in $(seq %d); do grep -q %s '
                   '/sys/class/net/eth0/carrier && break; sleep 0.1; done; '
                   'cat /sys/class/net/eth0/carrier' % (secs * 10, want)
                   ).strip()


def checksums(t, b, a, board, board_mac):
    """What the board offers, and what it does with a right and a wrong
    UDP checksum."""
    f = features(b)
    if CSUM[board]:
        t.result(f.get('rx-checksum') == 'on' and
                 f.get('tx-checksum-ipv4') == 'on',
                 'RX and IPv4 TX checksum offload offered and on',
                 str(f))
    else:
        t.result(f.get('rx-checksum') == 'off [fixed]' and
                 f.get('tx-checksum-ipv4') == 'off [fixed]',
                 'no checksum offload (off [fixed]: the driver does not '
                 'claim it)', str(f))
    cs_err = udp_checksums(
        t, b, a, board_mac,
        lambda: driver_stats(b, board)['rx_checksum_errors'])
    want = 1 if CSUM[board] else 0
    t.result(cs_err == want, 'GDMA1_RX_CSUM_ERR counted %s' %
             ('the wrong checksum' if want else 'nothing (no RX checksum '
                                                'verification here)'),
             'GDMA1_RX_CSUM_ERR %d' % cs_err)


def fuzz(t, b, a, board):
    """Random frames from A; True if QEMU died."""
    a.answer = a.keep = False
    rng = random.Random(FUZZ_SEED)
    frames = [fuzz_frame(rng) for _ in range(FUZZ)]
    s0 = driver_stats(b, board)
    secs = send_paced((a, f) for f in frames)
    time.sleep(3)
    alive = b.proc.poll() is None
    t.result(alive, '%d random frames (seed %d) from A: QEMU stays up '
             '(%.1f s)' % (FUZZ, FUZZ_SEED, secs),
             'QEMU exited %s' % b.proc.returncode)
    if not alive:
        return True
    a.answer = a.keep = True
    s1 = driver_stats(b, board)
    short = sum(len(f) < GMAC_MIN for f in frames)
    long_ = sum(len(f) > GMAC_MAX for f in frames)
    got = (s1['rx_short_errors'] - s0['rx_short_errors'],
           s1['rx_long_errors'] - s0['rx_long_errors'])
    t.result(got == (short, long_), 'the GMAC dropped and counted the %d '
             'runts (< %d bytes) and %d overlong frames (> %d) among them'
             % (short, GMAC_MIN, long_, GMAC_MAX),
             'rx_short_errors, rx_long_errors %s' % (got,))
    rtt = a.ping(IP_BOARD, 21)
    st, out = b.run('ping -c 2 -W 2 %s' % IP_A)
    t.result(isinstance(rtt, float) and st == 0, 'after them A pings the '
             'board and the board pings A', '%s\n%s' % (rtt, out))
    return False


def link(t, b):
    """The PHY's link follows the NIC's backend."""
    b.hmp('set_link gm off')
    down = carrier_within(b, 0, 5)
    b.hmp('set_link gm on')
    up = carrier_within(b, 1, 10)
    t.result(down == '0' and up == '1', 'eth0\'s carrier follows the '
             'wire: gone with set_link off (phylib polls BMSR), back with '
             'on (after the autonegotiation)', 'carrier %s, then %s'
             % (down, up))


def board_net(t, board):
    """Every check on @board; True if QEMU died."""
    t = Prefixed(t, board)
    fe = FE[board]
    a = Peer('A', MAC_A, IP_A)
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Blobs)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    port = srv.server_address[1]
    # The board's one NIC, A and the user networking on one hub
    extra = ['-netdev', 'hubport,id=gm,hubid=0',
             '-net', 'nic,netdev=gm,model=ralink-fe',
             '-netdev', '%s,id=pa' % a.backend(),
             '-netdev', 'hubport,id=hpa,hubid=0,netdev=pa',
             '-netdev', 'user,id=pu',
             '-netdev', 'hubport,id=hpu,hubid=0,netdev=pu']
    with Board(board, extra=extra) as b:
        b.wait_ready()
        b.check('dmesg -n 1')
        st, out = b.run('modprobe ralink_fe')
        dmesg = b.check('dmesg')
        t.result(st == 0 and re.search(BIND[board], dmesg),
                 'ralink_fe binds the frame engine',
                 out + '\n'.join(ln for ln in dmesg.splitlines()
                                 if 'eth' in ln or 'PHY' in ln))
        b.check('ip link set eth0 up && ip addr add %s/24 dev eth0 && '
                'ip addr add 10.0.2.15/24 dev eth0' % IP_BOARD)
        up = carrier_within(b, 1, 10)
        t.result(up == '1', 'eth0 comes up (carrier)', up)
        out = b.check('cat /sys/class/net/eth0/phydev/phy_id; basename '
                      '"$(readlink /sys/class/net/eth0/phydev/driver)"; '
                      'cat /sys/class/net/eth0/speed '
                      '/sys/class/net/eth0/duplex').splitlines()
        t.result(out == [PHY_ID, 'Generic PHY', '1000', 'full'],
                 'eth0\'s PHY is the one on the frame engine\'s MDIO (ID %s, '
                 'the Generic PHY driver), linked at 1000 Mbit/s full '
                 'duplex' % PHY_ID, str(out))
        cfg = int(b.check('devmem %#x 32' % (fe + MDIO_CFG)), 16)
        t.result(cfg & 0xf000 == MDIO_CFG_FORCED_1000FD, 'GMAC1 forced to '
                 'the PHY\'s link in MDIO_CFG (1000 Mbit/s, full duplex)',
                 'MDIO_CFG %#x' % cfg)
        board_mac = bytes.fromhex(b.check(
            'cat /sys/class/net/eth0/address').strip().replace(':', ''))

        rtt = a.ping(IP_BOARD, 1)
        t.result(isinstance(rtt, float), 'A pings the board', str(rtt))
        st, out = b.run('ping -c 3 -W 2 %s' % IP_A)
        t.result(st == 0 and '3 packets received' in out,
                 'the board pings A', out)
        link(t, b)
        vlan_insertion(t, b, a, fe + VID_TABLE)

        before = driver_stats(b, board)
        replies, bad, secs = echo_flood(a, board_mac, FRAMES, WINDOW)
        after = driver_stats(b, board)
        t.result(len(replies) == FRAMES and not bad, '%d echo requests from '
                 'A, each answered with its data' % FRAMES,
                 '%d answered, %d with other data (%.1f s)'
                 % (len(replies), len(bad), secs))
        got = [after[k] - before[k] for k in ('tx_packets', 'rx_packets')]
        t.result(got[0] >= FRAMES and got[1] >= FRAMES, 'GDMA1\'s counters '
                 'count them (TX %d, RX %d frames, the driver\'s)'
                 % tuple(got), 'before %s after %s' % (before, after))

        checksums(t, b, a, board, board_mac)
        tcp_both_ways(t, b, port, 120)
        if fuzz(t, b, a, board):
            return True
        dmesg_and_poweroff(t, b, '')
    srv.shutdown()
    t.qemu_log(b, board)
    return False


def main():
    t = Suite('gmac-net')
    for board in BOARDS:
        if board_net(t, board):
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
