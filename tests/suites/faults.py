#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""faults: the frame engine's faults injected into the model, each driver set.

The model's fault properties (qemu/hw/net/mt7621_fe.c, "fault-*"; set with
`qom-set /machine/soc/fe PROPERTY VALUE` in the monitor) make the device
fail as silicon can. On the GB-PC1 with a host-side peer A on port 0
(swp0 192.0.2.1/24, A 192.0.2.10), once with our drivers and once with
mainline's, each fault is set while A pings the board, and then:
- MDIO that never completes (fault-mdio-stuck: PHY_IAC's busy bit stays
  set): reading the switch's MIB (`ethtool -S swp0`) and adding an FDB
  entry return, and the timeout is logged; lifted, the MIB reads again
  and A pings swp0. (This case found the GIC timer model losing a CPU's
  timer interrupt for good: qemu/patches, "late compare".)
- a PHY that does not answer (fault-mdio-absent, port 1's PHY): swp1
  down and up, an autonegotiation restart and `ethtool swp1` return and
  do not oops, and the model counted the accesses the silent PHY got
  (mdio-absent-hits); lifted, and swp1 down and up again (phylib waits
  for a link interrupt that does not come), swp1 has its carrier, A
  still pings swp0.
- a stalled RX DMA (fault-rx-stall: it takes no frame until RX ring 0 or
  the frame engine is reset): the driver must find it and restart the
  DMA by itself, A's pings come back within 20 s with the fault still
  set. Ours watches the GDMAs' RX overflow against its ring
  (fe_rx_watch()); mainline's mtk_hw_reset_monitor_work() reads the PSE,
  CDM and ADMA state the model shows for a stall.
- RX descriptors broken four ways (fault-rx-desc, 8 frames: no length,
  a length no buffer has, no LS0, a source port no GDMA has): the frames
  are dropped and counted (eth0 rx_dropped), the ring goes on, A pings
  again. Mainline's mtk_poll_rx() hands the length to skb_put() unchecked
  (skb_over_panic): its limit, shown by the console, and so the last case.
Each set ends with no WARNING/BUG/Oops in the guest, kmemleak empty (the
boards boot with `kmemleak=on`; mainline's board does not survive its
last case), and the QEMU log's verdict.

And on a board of its own per set, the switch core reset in the middle of
traffic (fault-reset of the switch, `qom-set /machine/soc/switch
fault-reset on`: every register and table back to its reset value, as
SYS_CTRL's SW_RST|REG_RST do, unasked; the PHYs stay). swp0 and swp1 are
in a VLAN-aware bridge (VLAN 10, PVID, untagged) with a static entry for
B's address on swp1; swp2 stands alone with peer C. Before the reset and
again within 15 s after it, while A pings br0 every second or so: A
pings br0 (the CPU port's special tag and VLAN 10 are back), A's unicast
to B arrives (the static entry: the model's table holds it again), A's
broadcast arrives at B; and, counted apart as negative checks, nothing of
A's reaches C (the port matrix is back: the reset's matrix forwards
everything everywhere) and a frame A tags for VLAN 20 does not reach B
(the VLAN table and security mode are back). Ours notices the reset (its
stats work finds MTRAP without the bit it set) and programs the switch
again (rsw_restore()); broken once: with rsw_core_lost() returning false
the checks after the reset fail. Mainline's mt7530 never reads the
switch back: its limit, named by what fails.
"""

import itertools
import os
import re
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board, dt_bootargs  # noqa: E402
from peer import BCAST, Peer, arp, eth  # noqa: E402
import dsa  # noqa: E402
from tap import Suite  # noqa: E402

SETS = os.environ.get('FAULT_SETS', 'ours mainline').split()
# Every board looks for leaks once its faults are over
KMEMLEAK = dt_bootargs(dsa.DTB) + ' kmemleak=on'
FE = '/machine/soc/fe'
BOARD_IP, PEER_IP = '192.0.2.1', '192.0.2.10'
PEER_MAC = bytes.fromhex('02000000000a')
DESC_FAULTS = 8


# Ping sequence numbers, never reused
seq = itertools.count(1).__next__


def pings(a, within):
    """Whether A gets an answer from the board within @within seconds. A
    sends every 1.5 s at most (1 s for each answer, then 0.5 s): a stall
    is then seen by the drops it causes, in every second or so."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        rt = a.ping(BOARD_IP, seq(), wait=1)
        if isinstance(rt, float):
            return True, time.monotonic() - (end - within)
        time.sleep(0.5)
    return False, within


def fault(b, prop, value):
    out = b.hmp('qom-set %s %s %s' % (FE, prop, value))
    if out.strip():
        raise RuntimeError('qom-set %s %s: %s' % (prop, value, out))


def fault_get(b, prop):
    return b.hmp('qom-get %s %s' % (FE, prop)).strip()


def dmesg_since(b, n):
    return b.check('dmesg | tail -n +%d' % (n + 1))


MDIO_STUCK_SECS = 10


def mdio_stuck(suite, b, a, name):
    """MDIO stuck for MDIO_STUCK_SECS while a MIB read and an FDB add are
    under way: both return, the timeout is logged, and afterwards the MIB
    reads again. (Mainline's mtk_mdio_busy_wait() spins 1 s per access:
    ethtool -S alone took 44 s with the fault left on; bounded, the case
    costs both sets the same.)"""
    n0 = dsa.dmesg_lines(b)
    b.check('rm -f /tmp/mdio-rc1 /tmp/mdio-rc2')
    fault(b, 'fault-mdio-stuck', 'on')
    t0 = time.monotonic()
    b.check('(timeout 120 ethtool -S swp0 >/dev/null 2>&1; '
            'echo $? >/tmp/mdio-rc1) >/dev/null 2>&1 & '
            '(timeout 120 bridge fdb add 02:00:00:00:01:01 dev swp0 master '
            'static >/dev/null 2>&1; echo $? >/tmp/mdio-rc2) >/dev/null 2>&1 &'
            ' sleep 0')
    time.sleep(MDIO_STUCK_SECS)
    fault(b, 'fault-mdio-stuck', 'off')
    rcs = []
    for _ in range(150):
        _, out = b.run('cat /tmp/mdio-rc1 /tmp/mdio-rc2 2>/dev/null')
        rcs = out.split()
        if len(rcs) == 2:
            break
        time.sleep(1)
    secs = time.monotonic() - t0
    log = dmesg_since(b, n0)
    b.run('bridge fdb del 02:00:00:00:01:01 dev swp0 master static')
    # Both commands came back (timeout(1) gives 124: still hung after
    # 120 s), and the timeout reached the log. Without the GIC timer
    # fix, ours never came back (a CPU lost its timer interrupt).
    back = len(rcs) == 2 and '124' not in rcs
    suite.result(back and re.search(r'(?i)timeout|timed out|-110', log),
                 '%s: MDIO stuck for %d s: ethtool -S swp0 and an FDB add '
                 'return (%s) and the timeout is logged'
                 % (name, MDIO_STUCK_SECS, '/'.join(rcs)), log)
    suite.comment('%s: with MDIO stuck: both commands back after %.1f s; '
                  'dmesg: %s' % (name, secs, ' | '.join(
                      log.strip().splitlines()[-2:])))
    ok, secs = pings(a, 30)
    st, out = b.run('ethtool -S swp0 | grep -c :')
    suite.result(ok and st == 0 and int(out.strip() or 0) > 10,
                 '%s: MDIO back: A pings swp0, ethtool -S swp0 reads the '
                 'MIB' % name, 'ping %s; ethtool -S: %s' % (ok, out))


PHY_ABSENT_MASK = '2'       # port 1's PHY, MDIO address 1


def phy_absent(suite, b, a, name):
    """Port 1's PHY silent (its MDIO reads give 0xffff) while swp1 restarts
    autonegotiation, goes down and up and `ethtool swp1` reads it: the
    commands return, no oops, and the model counted accesses to the silent
    PHY (mdio-absent-hits: without them the case would pass with no fault
    at all; broken once with the mask on PHY 2, which nothing touched);
    lifted, and swp1 taken down and up (phylib read nothing usable during
    the fault and no link interrupt comes after it), swp1 has its carrier
    and A still pings swp0 (without the down and up it stays without
    carrier, both driver sets)."""
    hits0 = int(fault_get(b, 'mdio-absent-hits'))
    n0 = dsa.dmesg_lines(b)
    fault(b, 'fault-mdio-absent', PHY_ABSENT_MASK)
    st, out = b.run('ethtool -r swp1; ip link set swp1 down; '
                    'ip link set swp1 up; sleep 1; ethtool swp1; true',
                    timeout=60)
    hits = int(fault_get(b, 'mdio-absent-hits')) - hits0
    fault(b, 'fault-mdio-absent', '0')
    oops = dsa.new_oopses(b)
    # phylib, woken by the PHY's link interrupt, read the link during the
    # fault and got nothing usable; the link itself never changed, so no
    # interrupt makes it read again (swp1 stays without carrier, both
    # driver sets): the administrator's down and up does.
    log = dmesg_since(b, n0)
    b.run('ip link set swp1 down; ip link set swp1 up')
    up, out2 = b.run('(for i in $(seq 100); do ip link show swp1 | grep -q '
                     'LOWER_UP && exit 0; sleep 0.1; done; ip link show swp1;'
                     ' exit 1)', timeout=60)
    ok, secs = pings(a, 30)
    suite.result(st == 0 and hits > 0 and not oops and up == 0 and ok,
                 '%s: PHY 1 silent: swp1 down/up, autonegotiation restart '
                 'and ethtool return, no oops; lifted, swp1 (down and up '
                 'again) has its carrier and A still pings swp0' % name,
                 '%d accesses to the silent PHY; %s\n%s\n%s\n%s'
                 % (hits, out, log, out2, oops))
    suite.comment('%s: %d MDIO accesses to the silent PHY; %s' % (
        name, hits, ' | '.join(ln for ln in log.splitlines()
                               if 'swp1' in ln or 'PHY' in ln)[:300]))


def rx_stall(suite, b, a, name):
    n0 = dsa.dmesg_lines(b)
    fault(b, 'fault-rx-stall', 'on')
    t0 = time.monotonic()
    # One ping (A waits 1 s for each answer): mainline's monitor restarts
    # the DMA about 3 s after the stall starts, so a longer look could
    # miss the stall itself.
    ok, secs = pings(a, 1)
    stalled = not ok
    ok, secs = pings(a, 20)
    log = dmesg_since(b, n0)
    left = fault_get(b, 'fault-rx-stall')
    recovered = stalled and ok
    if not recovered:
        fault(b, 'fault-rx-stall', 'off')
    suite.result(recovered, '%s: RX DMA stalled: the driver finds it and '
                 'restarts the DMA, A pings again within 20 s' % name,
                 'pings during the first second: %s; later: %s; fault now %s'
                 '\n%s' % (not stalled, ok, left, log))
    if recovered:
        suite.comment('%s: RX DMA stall: pings back after %.1f s: %s'
                      % (name, time.monotonic() - t0, ' | '.join(
                          line for line in log.splitlines()
                          if re.search('(?i)stall|reset|dma', line))[:300]))
    return recovered


def rx_desc(suite, b, a, name, mainline):
    dropped = dsa.netdev_stat(b, 'eth0', 'rx_dropped')
    mark = b.mark()
    fault(b, 'fault-rx-desc', str(DESC_FAULTS))
    # ARP requests for the board's address: each reaches the CPU
    req = eth(BCAST, a.mac, 0x0806, arp(1, a.mac, a.ip, b'\0' * 6,
                                        BOARD_IP))
    for _ in range(DESC_FAULTS):
        a.send(req)
        time.sleep(0.05)
    for _ in range(50):
        if fault_get(b, 'fault-rx-desc') == '0':
            break
        time.sleep(0.1)
    left = fault_get(b, 'fault-rx-desc')
    what = ('%s: %d broken RX descriptors: dropped and counted, no oops, A '
            'pings again' % (name, DESC_FAULTS))
    console = b.text(mark)
    if mainline and 'skb_over_panic' in console:
        suite.skip(what, "mainline's mtk_poll_rx() passes the descriptor's "
                   "length to skb_put(): skb_over_panic on the console")
        return False
    try:
        oops = dsa.new_oopses(b)
    except Exception as e:  # noqa: BLE001 (the guest died)
        suite.fail(what, '%s\n%s' % (e, b.text(mark)[-3000:]))
        return False
    ok, secs = pings(a, 20)
    got = dsa.netdev_stat(b, 'eth0', 'rx_dropped') - dropped
    # The two length faults of each four are counted; a descriptor without
    # LS0 and the next (no GDMA) that ends its "frame" have no MAC to
    # count on.
    suite.result(left == '0' and ok and got >= DESC_FAULTS // 2 and
                 not oops, what, 'fault left %s; eth0 rx_dropped +%d; ping '
                 '%s\n%s' % (left, got, ok, oops))
    return True


def start(b, driver_set, ports):
    """Boot @b, load @driver_set for @ports, count leaks from now on."""
    b.wait_ready()
    b.check('%s %s %s' % (dsa.LOAD, driver_set, ports), timeout=120)
    dsa.kmemleak_start(b)
    # Errors go to dmesg, not to the console the harness reads
    b.check('dmesg -n 1')


def one_set(suite, driver_set):
    name = driver_set
    mainline = driver_set == 'mainline'
    a = Peer('A', PEER_MAC, PEER_IP)
    # Port 1 has a cable (a hub port of its own, nobody behind it): its
    # PHY's case needs a link to come back to
    cable = ['-netdev', 'hubport,id=p1,hubid=1', '-net',
             'nic,netdev=p1,model=mt7530']
    with Board('gnubee-pc1', dtb=dsa.DTB, extra=a.netdev('p0') + cable,
               append=KMEMLEAK) as b:
        start(b, driver_set, 'swp0 swp1')
        b.check('ip addr add %s/24 dev swp0 && ip link set swp0 up && '
                'ip link set swp1 up' % BOARD_IP)
        ok, secs = pings(a, 30)
        suite.result(ok, '%s: A pings swp0 before any fault' % name, '')
        phy_absent(suite, b, a, name)
        mdio_stuck(suite, b, a, name)
        rx_stall(suite, b, a, name)
        alive = rx_desc(suite, b, a, name, mainline)
        if alive:
            dsa.no_oops(suite, b, name)
            leaks = dsa.kmemleak_leaks(b)
            suite.result(not leaks, '%s: kmemleak empty after the faults'
                         % name, leaks)
    suite.qemu_log(b, '%s: the board' % name)


B_MAC = bytes.fromhex('02000000000b')
C_MAC = bytes.fromhex('02000000000c')
RESET_SECS = 15


def forwarding(b, a, bp, cp, tag):
    """What the switch does with A's frames now: (positive checks, negative
    checks), each a list of (ok, what). @tag makes the payloads unique."""
    pos, neg = [], []
    ok, secs = pings(a, 3)
    pos.append((ok, 'A pings br0'))
    uc = eth(B_MAC, a.mac, 0x88b5, b'reset-uc-' + tag)
    bc = eth(BCAST, a.mac, 0x88b5, b'reset-bc-' + tag)
    v20 = eth(B_MAC, a.mac, 0x8100, struct.pack('!HH', 20, 0x88b5) +
              b'reset-v20-' + tag)
    for f in (uc, bc, v20):
        a.send(f)
    got_uc = bp.wait(lambda f: f[:len(uc)] == uc, 3) is not None
    got_bc = bp.wait(lambda f: f[:len(bc)] == bc, 3) is not None
    time.sleep(1)
    with bp.cond:
        got_v20 = any(b'reset-v20-' + tag in f for f in bp.frames)
    with cp.cond:
        at_c = [f for f in cp.frames if tag in f]
    table, out = dsa.switch_fdb(b)
    static = bool(table) and re.search(
        r'(?m)^%s vid 10 ports 0x02 static$' % re.escape(B_MAC.hex(':')),
        table)
    pos.append((got_uc, "A's unicast to B arrives"))
    pos.append((got_bc, "A's broadcast arrives at B"))
    pos.append((bool(static), "the switch's table holds B's static entry "
                "(VLAN 10, port 1)"))
    neg.append((not at_c, "nothing of A's reaches C on the standalone swp2"))
    neg.append((not got_v20, 'a frame A tags for VLAN 20 does not reach B'))
    return pos, neg


def switch_reset(suite, driver_set):
    name = driver_set
    mainline = driver_set == 'mainline'
    a = Peer('A', PEER_MAC, PEER_IP)
    bp = Peer('B', B_MAC, '192.0.2.11')
    cp = Peer('C', C_MAC, '198.51.100.10')
    extra = a.netdev('p0') + bp.netdev('p1') + cp.netdev('p2')
    with Board('gnubee-pc1', dtb=dsa.DTB, extra=extra, nosmp=True,
               append=KMEMLEAK) as b:
        start(b, driver_set, 'swp0 swp1 swp2')
        b.check('ip link add br0 type bridge vlan_filtering 1 && '
                'for p in swp0 swp1; do ip link set $p master br0 && '
                'bridge vlan add vid 10 dev $p pvid untagged && '
                'bridge vlan del vid 1 dev $p && ip link set $p up; done && '
                'bridge vlan add vid 10 dev br0 self pvid untagged && '
                'bridge vlan del vid 1 dev br0 self && '
                'ip addr add %s/24 dev br0 && ip link set br0 up && '
                'ip addr add 198.51.100.1/24 dev swp2 && ip link set swp2 up'
                ' && bridge fdb add %s dev swp1 master static vlan 10'
                % (BOARD_IP, B_MAC.hex(':')))
        if not dsa.carrier(b, ['swp0', 'swp1', 'swp2']):
            raise RuntimeError('no carrier on swp0-swp2')
        pos, neg = forwarding(b, a, bp, cp, b'before')
        suite.result(all(ok for ok, _ in pos + neg),
                     '%s: before the switch reset: %s' % (
                         name, '; '.join(w for _, w in pos + neg)),
                     '\n'.join('%s: %s' % (ok, w) for ok, w in pos + neg))
        n0 = dsa.dmesg_lines(b)
        out = b.hmp('qom-set %s fault-reset on' % dsa.SWITCH_QOM)
        if out.strip():
            raise RuntimeError('qom-set fault-reset: %s' % out)
        t0 = time.monotonic()
        back, secs = pings(a, RESET_SECS)
        pos, neg = forwarding(b, a, bp, cp, b'after')
        log = dmesg_since(b, n0)
        oops = dsa.new_oopses(b)
        what_pos = ('%s: after a switch reset mid-traffic, within %d s: '
                    '%s' % (name, RESET_SECS,
                            '; '.join(w for _, w in pos)))
        what_neg = ('%s: after a switch reset mid-traffic (negative): %s'
                    % (name, '; '.join(w for _, w in neg)))
        diag = '\n'.join('%s: %s' % (ok, w) for ok, w in pos + neg)
        diag += '\npings back: %s after %.1f s\n%s%s' % (
            back, time.monotonic() - t0, log, oops)
        if mainline and not all(ok for ok, _ in pos + neg):
            lost = [w for ok, w in pos + neg if not ok]
            why = ("mainline's mt7530 never reads the switch back and does "
                   "not notice a reset of its core: after it, not so: %s"
                   % '; '.join(lost))
            suite.skip(what_pos, why)
            suite.skip(what_neg, why)
        else:
            suite.result(all(ok for ok, _ in pos) and not oops, what_pos,
                         diag)
            suite.result(all(ok for ok, _ in neg), what_neg, diag)
            if not mainline:
                suite.result('reset behind the driver' in log,
                             '%s: the driver logs the switch reset it found'
                             % name, log)
        if back:
            suite.comment('%s: switch reset: pings back after %.1f s: %s'
                          % (name, secs, ' | '.join(
                              log.strip().splitlines()[-2:])))
        dsa.no_oops(suite, b, '%s (switch reset board)' % name)
        leaks = dsa.kmemleak_leaks(b)
        suite.result(not leaks, '%s: kmemleak empty after the switch reset'
                     % name, leaks)
    suite.qemu_log(b, '%s: the switch reset board' % name)


def main():
    suite = Suite('faults')
    for s in SETS:
        one_set(suite, s)
    for s in SETS:
        switch_reset(suite, s)


if __name__ == '__main__':
    main()
