# SPDX-License-Identifier: GPL-2.0
"""The kernel's DSA selftests on the emulated board, one TAP line per case.

Each script of tools/testing/selftests/drivers/net/dsa/ (6.12, in the guest
at /usr/lib/kselftest) runs on a freshly booted board with the test DT that
enables all five switch ports; QEMU loops port 0 to port 1 and port 2 to
port 3 through two hubs, so the scripts' pairs (p1, p2) and (p3, p4) are
cabled to each other. Nothing on those wires runs in real time, so the
boards run on the virtual clock (board.VIRTUAL_CLOCK: a script's sleeps
and timeouts cost no host time) with Linux on one CPU (`nosmp`: with
-icount the vCPUs take turns on one host thread, and one spinning for
another wastes its turn). Scripts run on several boards at once
(DSA_BOARDS per suite, default the host's CPU count; all suites together
within the board slots, board.Slot), the longest first. Each script's
lines are printed as soon as it ends, with its times (Timing).

A `TEST: <case> [ OK ]` line becomes `ok - <suite>: <script>: <case>`;
FAIL a `not ok` with the script's message; SKIP a skip with its message;
XFAIL (a failure the script itself allows) an `ok` of `<case> (XFAIL)`
with a comment. A
script that prints no TEST line and exits with kselftest's skip status (4)
is one skip line naming its reason.
"""

import collections
import json
import os
import queue
import re
import threading

from board import Board, LOG_VERDICT

IFACES = ['swp0', 'swp1', 'swp2', 'swp3']
KSELFTEST = '/usr/lib/kselftest/drivers/net/dsa'
LOAD = '/usr/lib/ralink-fe/load-drivers.sh'
RUN = '/usr/lib/ralink-fe/run-selftest.sh'
KSFT_SKIP = 4

# All scripts of the 6.12 directory, with the host CPU seconds each takes
# (on the virtual clock, measured here: tests/dsa-table.py --times), the
# longest first: the board slots (board.Slot) go to the longest waiting
# job of any suite first.
EXPECT = {
    'test_bridge_fdb_stress.sh': 250,
    'bridge_mdb.sh': 210,
    'no_forwarding.sh': 90,
    'tc_actions.sh': 55,
    'local_termination.sh': 50,
    'bridge_mld.sh': 36,
    'bridge_vlan_mcast.sh': 16,
    'bridge_locked_port.sh': 15,
    'bridge_vlan_aware.sh': 13,
    'bridge_vlan_unaware.sh': 11,
}
SCRIPTS = sorted(EXPECT, key=lambda s: -EXPECT[s])

# Per script, in seconds of guest time: the longest script
# (no_forwarding.sh) takes about 17 minutes of it. A script that prints
# nothing for its STALL seconds is waiting for something that will not
# come (tests/guest/run-selftest.sh stops it). no_forwarding.sh prints
# nothing while it sends its packets (minutes), so only scripts whose
# cases each print within seconds get a short STALL.
SCRIPT_TIMEOUT = 1800
# DSA_PROFILE=1: BSD process accounting during each script, and `sa`'s
# per-program summary in build/selftests/<suite>/<script>.profile.
PROFILE = os.environ.get('DSA_PROFILE') == '1'
PACCT = '/tmp/pacct'

STALL = {'tc_actions.sh': 180}
# Every case each script reports, in order ("script: case" a line), from
# a complete run of both driver sets (they report the same names).
CASES_FILE = os.path.join(os.path.dirname(__file__), 'dsa-cases.txt')


class Bed:
    """A board the scripts run on: its QEMU machine @board, test DT @dtb
    (swp0-swp3 the first four front ports), the NIC model @nic of its
    switch's ports (looped in pairs, loop_args()), the switch model's QOM
    path @switch_qom (its "fdb" property, the address table), the virtual
    clock's @shift (board.virtual_clock_args()), and @mem and @rootfs
    where the board's own (board.BOARD_MEM, BOARD_ROOTFS) do not hold the
    selftests. (Its scripts' host seconds are within a third of EXPECT's,
    the MT7621's, which orders the board slots' jobs well enough.)"""

    def __init__(self, name, board, dtb, nic, switch_qom, shift=1,
                 mem=None, rootfs=None):
        self.name, self.board, self.dtb, self.nic = name, board, dtb, nic
        self.switch_qom, self.shift = switch_qom, shift
        self.mem, self.rootfs = mem, rootfs


# The GnuBee PC1 (MT7621, MT7530), as mainline-dsa and ours-dsa run them.
MT7621 = Bed('mt7621', 'gnubee-pc1', 'mt7621-gnubee-gb-pc1-dsa.dtb',
             'mt7530', '/machine/soc/switch')
# The VoCore2 (MT7628AN, the ESW), as esw-selftests runs them. The test DT
# gives it 256 MiB (the MT7628's DDR2 maximum; the VoCore2 has 128): the
# full rootfs, 73 MiB of initramfs (bash, iproute2, tcpdump, the
# selftests), does not unpack in 128. Its clock counts 4 ns an
# instruction (250 MIPS): a 580 MHz 24KEc, one instruction a cycle at
# best, is not faster than that.
MT7628 = Bed('mt7628', 'vocore2', 'mt7628-vocore2-esw-256m.dtb',
             'ralink-esw', '/machine/soc/esw', shift=2, mem='256M',
             rootfs='rootfs')
# The MT7620A evaluation board (its GSW: the MT7530 model, chip mt7620),
# as gsw-selftests runs them: 256 MiB (the MT7620's DDR2 maximum; the
# board has 32) and the clock of a 580 MHz 24KEc, as the VoCore2's.
MT7620 = Bed('mt7620', 'mt7620a-eval', 'mt7620a-eval-gsw-256m.dtb',
             'mt7530', '/machine/soc/gsw', shift=2, mem='256M',
             rootfs='rootfs')
BEDS = {b.name: b for b in (MT7621, MT7628, MT7620)}
# The MT7621's, which the other suites' boards use too
DTB = MT7621.dtb
SWITCH_QOM = MT7621.switch_qom


class Limit:
    """A failure whose reason lies outside the model, reported as a skip.

    It matches a failed case of @script (only the case named @case, if
    given) run on the Bed named @bed with a driver set of @sets ('*':
    any) when @msg matches the
    script's first message for the case and, if @context is given, a line
    the script printed between the previous case and this one matches it
    (e.g. the error of the command the driver refused). With @stalled set,
    it matches instead a script stopped for silence when a line printed
    after its last case matches @context, and names the case that hung
    @stalled; the script's tests after it, @rerun (its TESTS), then run on
    a fresh board. Any other failure of the same case stays a failure.
    @bed may be a tuple of Bed names: the MT7530 core's limits are the
    MT7621's and the MT7620's GSW's (MT7530_BEDS).
    """

    def __init__(self, sets, script, why, msg=None, context=None,
                 stalled=None, case=None, rerun=None, bed='mt7621'):
        self.sets, self.script, self.why = sets, script, why
        self.bed = bed
        self.case, self.rerun = case, rerun
        self.msg = re.compile(msg) if msg else None
        self.context = re.compile(context) if context else None
        self.stalled = stalled

    def on_bed(self, name):
        """Whether the limit is one of the Bed named @name."""
        return name in (self.bed if isinstance(self.bed, tuple) else
                        (self.bed,))

    def matches(self, driver_set, script, msg, context, case=None,
                bed='mt7621'):
        if script != self.script or not self.on_bed(bed) or (
                self.sets != '*' and driver_set not in self.sets):
            return False
        if self.case and case not in ((self.case,) if isinstance(
                self.case, str) else self.case):
            return False
        if self.msg and not self.msg.match(msg):
            return False
        return not self.context or any(self.context.match(ln)
                                       for ln in context)


# The MT7530 switch core's Beds: the MT7621's and the MT7620's GSW
MT7530_BEDS = ('mt7621', 'mt7620')
LIMITS = [
    # MT7530 forwards multicast on destination MAC (the address table has
    # no IP source): traffic from an excluded source is forwarded like any
    # other to the group. brmcast_check_sg_fwding 0 is the last check of
    # every bridge_mld.sh case.
    Limit('*', 'bridge_mld.sh',
          'hardware limit: the MT7530 forwards multicast by destination MAC,'
          ' it cannot filter by source (S,G)',
          msg=r'^Forwarded traffic for blocked S,G', bed=MT7530_BEDS),
    # The same in bridge_mdb.sh: an (S, G) port group entry, or a (*, G)
    # one in EXCLUDE mode with a source list, forwards to its port only
    # what comes from the allowed sources in software; the switch's entry
    # for the group's MAC forwards from any source.
    Limit('*', 'bridge_mdb.sh',
          'hardware limit: the MT7530 forwards multicast by destination MAC,'
          ' it cannot filter by source (S,G)',
          case=tuple('IPv%s port group "%s" entries forwarding tests'
                     % (v, mode) for v in '46' for mode in ('exclude',
                                                           'include')),
          msg=r'^Packet from invalid source received on H2 after adding '
          r'entry$', bed=MT7530_BEDS),
    # No emulation-speed limit: bridge_mld.sh's timer cases (a 5 s GMI, a
    # 10 s LMQT checked after a dozen `bridge | jq` runs) failed under TCG
    # on the real clock, with jq 1.6, on a loaded host; on the virtual
    # clock with gojq the guest's time follows its own instructions only,
    # and they pass.
]


# tc_actions.sh's skip_sw cases that put flower filters on switch ports
# (all but "mirred egress matchall mirror").
TC_FLOWER_SKIP_SW = tuple('%s (skip_sw)' % c for c in (
    'gact drop and ok', 'mirred egress flower redirect',
    'mirred egress flower mirror', 'trap', 'mirred_egress_to_ingress',
    'mirred_egress_to_ingress_tcp', 'ingress_2nd_vlan_push',
    'egress_2nd_vlan_push'))


def switch_driver_limits(sets, locked_why, locked_refusal, flower_why,
                         bed='mt7621',
                         flower_refusal=r'^RTNETLINK answers: Operation not '
                         r'supported$'):
    """The limits of an MT7530 switch driver, for the driver sets @sets
    using it on @bed: locked ports refused (@locked_why; @locked_refusal
    matches the error `bridge link set ... locked on` prints), no flower
    offload (@flower_why; @flower_refusal matches the error tc prints)."""
    return [
        # Every case of bridge_locked_port.sh locks swp1 first (the MAB
        # cases too: MAB needs a locked port); with the lock refused, the
        # case's checks that traffic stops fail.
        Limit(sets, 'bridge_locked_port.sh', locked_why,
              context=locked_refusal, bed=bed),
        # DSA user ports have hw-tc-offload on, so tc_actions.sh runs its
        # cases again with skip_sw: every `tc filter add ... flower
        # skip_sw` is refused and the case finds nothing matched. Only the
        # skip_sw cases whose filters are flower ones: the matchall mirror
        # is offloaded, and a failure there is a failure.
        Limit(sets, 'tc_actions.sh', flower_why + ' (tc refuses the '
              'skip_sw filter), the skip_sw case has nothing to test',
              context=flower_refusal, case=TC_FLOWER_SKIP_SW, bed=bed),
        # In mirred_egress_to_ingress_tcp (skip_sw), with its filters
        # refused, the client's connection is refused and the script's
        # `ncat --recv-only -l` listener (no idle timeout) waits forever.
        Limit(sets, 'tc_actions.sh', flower_why + '; with the case\'s '
              'filters refused, its ncat listener never gets a connection '
              'and the script hangs (stopped after %d s of silence)'
              % STALL['tc_actions.sh'],
              context=r'^Ncat: Connection refused\.$',
              stalled='mirred_egress_to_ingress_tcp (skip_sw)',
              rerun='ingress_2nd_vlan_push egress_2nd_vlan_push', bed=bed),
    ]


# mt7530_port_pre_bridge_flags() in 6.12 accepts learning and the three
# flood flags only ("bridge flag offload is not supported"); mt7530 has no
# cls_flower_add (it offloads matchall mirroring only).
LIMITS += switch_driver_limits(
    ('mainline', 'ours-eth+mainline-dsa'),
    "mainline's mt7530 driver does not offload locked ports (its "
    "port_pre_bridge_flags refuses BR_PORT_LOCKED)",
    # mt7530 refuses without a message: the bridge's own one.
    r'^Error: bridge: bridge flag offload is not supported\.$',
    "mainline's mt7530 driver offloads no flower filter")
# Ours refuses BR_PORT_LOCKED too: the MT7530's address table has no
# per-port mode that keeps frames from unknown source addresses from being
# forwarded (PSC.SA_DIS only stops learning), nor has the model;
# rsw_port_pre_bridge_flags() says "the switch cannot lock a port".
OURS = ('ours', 'mainline-eth+ours-dsa')
OURS_LOCKED = ('the MT7530 cannot lock a port (no unknown-source-address '
               'drop or trap per port); ralink_mt7530 refuses '
               'BR_PORT_LOCKED')
OURS_LOCKED_REFUSAL = r'^Error: ralink_mt7530: the switch cannot lock a port\.$'
# On the MT7620's GSW no ACL is sourced: ralink_mt7530 refuses flower there.
LIMITS += switch_driver_limits(
    OURS, OURS_LOCKED, OURS_LOCKED_REFUSAL,
    "ralink_mt7530 offloads no flower filter on the MT7620's GSW (its ACL "
    "is not sourced)", bed='mt7620',
    flower_refusal=r"^Error: ralink_mt7530: this switch's ACL is not "
    r"known\.$")
# On the MT7621 ralink_mt7530 offloads flower filters through the
# MT7530's ACL (issue 20, NOTES.md), those that do without hit counters
# (`hw_stats disabled`): the ACL's counters are not sourced. tc_actions.sh's
# skip_sw filters keep tc's default hw_stats ("any"), which asks for them:
# refused, by name. What the ACL, as sourced, cannot do stays a limit:
ACL_NO_COUNTERS = ("the MT7530's ACL hit counters are not sourced: "
                   "ralink_mt7530 offloads a flower filter only with "
                   "`hw_stats disabled`, and refuses the case's skip_sw "
                   "filter, which keeps tc's default (hit counters)")
ACL_NO_COUNTERS_REFUSAL = (r'^Error: ralink_mt7530: the ACL has no hit '
                           r'counters \(hw_stats disabled\)\.$')
ACL_MATCH_REFUSAL = (r'^Error: ralink_mt7530: the ACL matches MAC '
                     r'addresses, EtherType, IPv4 addresses, IP protocol '
                     r'and TCP/UDP ports only\.$')
LIMITS += [
    Limit(OURS, 'bridge_locked_port.sh', OURS_LOCKED,
          context=OURS_LOCKED_REFUSAL, bed='mt7621'),
    Limit(OURS, 'tc_actions.sh', ACL_NO_COUNTERS,
          msg=r'^Packet was not dropped$', context=ACL_NO_COUNTERS_REFUSAL,
          case='gact drop and ok (skip_sw)'),
    Limit(OURS, 'tc_actions.sh', ACL_NO_COUNTERS,
          msg=r'^Did not match incoming (redirect|mirror) packet$',
          context=ACL_NO_COUNTERS_REFUSAL,
          case=('mirred egress flower redirect (skip_sw)',
                'mirred egress flower mirror (skip_sw)')),
    # Its skip_sw redirect filter (pref 3) refused, the case's skip_hw
    # drop filter (pref 1) sees the frame before the trap filter is in
    Limit(OURS, 'tc_actions.sh', ACL_NO_COUNTERS,
          msg=r'^Saw packet without trap rule inserted$',
          context=ACL_NO_COUNTERS_REFUSAL, case='trap (skip_sw)'),
    Limit(OURS, 'tc_actions.sh', 'the ACL matches no VLAN count '
          '(num_of_vlans) and pushes no VLAN tag: ralink_mt7530 refuses the '
          'skip_sw filter', context=ACL_MATCH_REFUSAL,
          case='ingress_2nd_vlan_push (skip_sw)'),
    Limit(OURS, 'tc_actions.sh', 'the ACL acts on ingress only: '
          'ralink_mt7530 refuses the skip_sw filter on egress',
          context=r'^Error: ralink_mt7530: the ACL acts on ingress only\.$',
          case='egress_2nd_vlan_push (skip_sw)'),
    # The case's skip_sw filters are on h1's egress, refused; its
    # `ncat --recv-only -l` listener (no idle timeout) then waits forever.
    Limit(OURS, 'tc_actions.sh', 'the ACL acts on ingress only: with the '
          'case\'s egress filters refused, its ncat listener never gets a '
          'connection and the script hangs (stopped after %d s of silence)'
          % STALL['tc_actions.sh'],
          context=r'^Ncat: Connection refused\.$',
          stalled='mirred_egress_to_ingress_tcp (skip_sw)',
          rerun='ingress_2nd_vlan_push egress_2nd_vlan_push'),
]

# The ESW on the MT7628 (bed 'mt7628', ralink_esw), what public sources
# give of it: no per-port control of learning or flooding, no port matrix,
# no unknown-source trap, no mirroring, no ACL, one ageing interval
# (300 s), multicast forwarded by destination MAC. ralink_esw refuses what
# it cannot do by name (resw_port_pre_bridge_flags()); DSA refuses tc
# offloads without a driver op ("Operation not supported").
ESW = 'mt7628'
ESW_FLOOD = r'^Error: ralink_esw: the switch cannot turn flooding off\.$'
for _script in ('bridge_vlan_aware.sh', 'bridge_vlan_unaware.sh'):
    LIMITS += [
        # learning_test turns unknown unicast flooding off on the port it
        # learns on, so that a frame reaches it only by the FDB entry
        Limit('*', _script, 'hardware limit: the ESW floods unknown unicast'
              ' to every port of the VLAN, with no per-port control '
              '(`flood off` refused)', case='FDB learning',
              msg=r'^Packet reached first host when should not$',
              context=ESW_FLOOD, bed=ESW),
        Limit('*', _script, 'hardware limit: the ESW floods unknown unicast'
              ' and unregistered multicast to every port of the VLAN, with no'
              ' per-port control (`flood off`, `mcast_flood off` refused)',
              case=('Unknown unicast flood', 'Unregistered multicast flood'),
              msg=r'^Packet flooded when should not$', context=ESW_FLOOD,
              bed=ESW),
    ]
# In the VLAN-aware bridge (forwarded by the CPU, its ports in their own
# VLANs in the switch), learning_test's frames from the address it uses
# entered port 1, and the switch still has it there: 300 s, where the
# bridge forgot it after the script's 10 s. flooding's frames to it enter
# port 1 again and are dropped as for their own port. Run without the
# learning case, flooding's frames reach H2 (NOTES.md). The message alone
# would also match a VLAN-aware bridge that floods nothing: esw-dsa checks
# that it floods unknown unicast (its "VLAN-aware bridge: A's frames to an
# unknown unicast address reach C"). The same in the VLAN-unaware bridge
# (forwarded by the switch), which esw-dsa checks floods too ("an unknown
# destination reaches B and C"): until qemu/patches/0033 the virtual clock
# ran minutes ahead of the guest while it waited for its console, the
# 300 s passed within the script, and that case passed.
for _script in ('bridge_vlan_aware.sh', 'bridge_vlan_unaware.sh'):
    LIMITS.append(Limit(
        '*', _script, 'hardware limit: the ESW ages learned addresses after '
        "300 s, the one interval known (the bridge's 10 s cannot be set), "
        "and learning cannot be turned off: the previous case's address, "
        'learned on port 1, keeps frames to it that enter port 1 from being '
        'flooded', case='Unknown unicast flood',
        msg=r'^Packet was not flooded when should$', bed=ESW))
LIMITS += [
    # Every case of bridge_locked_port.sh locks swp1 first.
    Limit('*', 'bridge_locked_port.sh', 'hardware limit: the ESW cannot '
          'lock a port (no unknown-source drop or trap is known); ralink_esw'
          ' refuses BR_PORT_LOCKED',
          context=r'^Error: ralink_esw: the switch cannot lock a port\.$',
          bed=ESW),
    # bridge_mdb.sh turns multicast flooding off on swp2 for its
    # forwarding cases (refused before the IP cases, which pass: the
    # bridge snoops, so IP multicast is not flooded); the L2 group is
    # flooded before its entry is added.
    Limit('*', 'bridge_mdb.sh', 'hardware limit: the ESW floods '
          'unregistered multicast to every port of the VLAN, with no '
          'per-port control (`mcast_flood off` refused)',
          case='L2 port entries forwarding tests',
          msg=r'^Packet received on H2 before adding entry$', bed=ESW),
    # As on the MT7530 (LIMITS' first entry).
    Limit('*', 'bridge_mld.sh', 'hardware limit: the ESW forwards multicast'
          ' by destination MAC, it cannot filter by source (S,G)',
          msg=r'^Forwarded traffic for blocked S,G', bed=ESW),
    # A VLAN upper of a port in a VLAN-aware bridge: the port alone in the
    # bridge is not made promiscuous, and DSA claims unicast filtering
    # (IFF_UNICAST_FLT), but ralink_esw floods a VLAN-aware bridge's ports
    # to the CPU (resw_host_flood_sync()): the bridge's own addresses are
    # in its VLAN, which these ports do not use.
    Limit('*', 'local_termination.sh', "driver limit: ralink_esw does not "
          "offload a VLAN-aware bridge, whose ports send the CPU every frame"
          " (the bridge forwards them), unknown unicast too",
          case=tuple('VLAN over vlan_filtering=1 bridged port: Unicast IPv4 '
                     'to unknown MAC address%s' % a for a in ('',
                                                              ', allmulti')),
          msg=r'^reception succeeded, but should have failed$', bed=ESW),
    # tc_actions.sh's skip_sw pass: every flower and matchall filter on a
    # switch port is refused (no ACL, no mirroring); the TCP case then
    # hangs as on the MT7530 (switch_driver_limits()).
    Limit('*', 'tc_actions.sh', 'hardware limit: the ESW has no ACL and no '
          'port mirroring (tc: Operation not supported), the skip_sw case has'
          ' nothing to test',
          context=r'^RTNETLINK answers: Operation not supported$',
          case=TC_FLOWER_SKIP_SW + ('mirred egress matchall mirror '
                                    '(skip_sw)',), bed=ESW),
    Limit('*', 'tc_actions.sh', 'hardware limit: the ESW has no ACL; with '
          "the case's filters refused, its ncat listener never gets a "
          'connection and the script hangs (stopped after %d s of silence)'
          % STALL['tc_actions.sh'],
          context=r'^Ncat: Connection refused\.$',
          stalled='mirred_egress_to_ingress_tcp (skip_sw)',
          rerun='ingress_2nd_vlan_push egress_2nd_vlan_push', bed=ESW),
]

# What a case the script marks XFAIL (failed, and allowed to) ends with
XFAIL_MARK = ' (XFAIL)'

TEST_LINE = re.compile(r'^TEST: (.*?)\s*\[\s*(OK|FAIL|SKIP|XFAIL)\s*\]\s*$')


def loop_args(bed=MT7621):
    """QEMU arguments: @bed's switch ports 0<->1 and 2<->3 on two hubs."""
    args = []
    for port in range(4):
        hub = 1 + port // 2
        args += ['-netdev', 'hubport,id=sw%d,hubid=%d' % (port, hub),
                 '-net', 'nic,netdev=sw%d,model=%s' % (port, bed.nic)]
    return args


def limit(driver_set, script, msg, context, stalled=False, case=None,
          bed=MT7621):
    """The known limit that explains a failure, or None."""
    for lim in LIMITS:
        if bool(lim.stalled) == stalled and lim.matches(
                driver_set, script, msg, context, case, bed.name):
            return lim
    return None


RUNNER = re.compile(r'^run-selftest: (?:status (\d+)|(stalled|timed out)'
                    r'.*)$')


def parse(script, out, driver_set=None, bed=MT7621):
    """TAP results (verdict, name, diag) of one script's output.

    @out ends with tests/guest/run-selftest.sh's verdict line.
    """
    lines = out.rstrip('\n').splitlines()
    m = RUNNER.match(lines[-1]) if lines else None
    if not m:
        return [('FAIL', script, 'no verdict from run-selftest.sh:\n%s'
                 % '\n'.join(lines[-30:]))]
    ending = lines.pop()
    status = int(m.group(1)) if m.group(1) else None
    results = []
    skipped = 0
    context = []
    for i, line in enumerate(lines):
        m = TEST_LINE.match(line.strip())
        if not m:
            # A case the script skips before it gets a TEST line, saying
            # why ("SKIP: iproute2 too old; ..."): a skip of its own.
            if line.startswith('SKIP: '):
                skipped += 1
                results.append(('SKIP', '%s: case skipped #%d'
                                % (script, skipped), line[6:].strip()))
            if not line.startswith('\t'):
                context.append(line.strip())
            continue
        case, verdict = m.group(1).strip(), m.group(2)
        msg = []
        for follow in lines[i + 1:]:
            if not follow.startswith('\t'):
                break
            msg.append(follow.strip())
        lim = limit(driver_set, script, msg[0], context, case=case,
                    bed=bed) if (
            verdict == 'FAIL' and msg) else None
        if lim:
            verdict, msg = 'SKIP', ['%s (the script: %s)' % (lim.why, msg[0])]
        results.append((verdict, '%s: %s' % (script, case), '\n'.join(msg)))
        context = []
    if status is None:
        # Stopped by run-selftest.sh: the case after the last TEST line
        # never finished.
        tail = [ln for ln in lines[-30:] if ln.strip()]
        lim = limit(driver_set, script, '', context, stalled=True,
                    bed=bed) if (
            ending.startswith('run-selftest: stalled')) else None
        if lim:
            results.append(('SKIP', '%s: %s' % (script, lim.stalled),
                            '%s (%s)' % (lim.why, ending[14:])))
        else:
            results.append(('FAIL', '%s: the case after the last TEST line'
                            % script, '%s; last output:\n%s'
                            % (ending[14:], '\n'.join(tail))))
        return results
    if skipped and len(results) == skipped and status == KSFT_SKIP:
        # The whole script skipped: one line, not one per SKIP message
        return [('SKIP', script, results[-1][2])]
    if not results:
        why = [ln for ln in lines if 'SKIP' in ln or 'skip' in ln]
        if status == KSFT_SKIP:
            results.append(('SKIP', script, why[-1] if why else
                            'script skipped (status 4)'))
        elif status == 0:
            # test_bridge_fdb_stress.sh: no TEST lines, its verdict is
            # that the kernel stays healthy (checked by the caller).
            results.append((' OK', script, ''))
        else:
            results.append(('FAIL', script, 'exit status %d, no TEST line:\n%s'
                            % (status, '\n'.join(lines[-30:]))))
    return results


def case_times(start, samples, cases):
    """Guest seconds each of @cases TEST lines took, from the script's
    @start (guest uptime) and run-selftest.sh's samples ("UPTIME COUNT":
    COUNT TEST lines printed by UPTIME, taken each guest second)."""
    times = []
    prev = start
    for i in range(1, cases + 1):
        t = next((up for up, n in samples if n >= i), None)
        if t is None:
            break
        times.append(max(0.0, t - prev))
        prev = t
    return times


class Timing:
    """Where one script's time went: host seconds from QEMU's start to
    the end (wall), to the shell (boot), host CPU of QEMU's vCPU thread(s)
    and of its I/O thread, guest seconds of the script, and per case."""

    def __init__(self):
        self.wall = self.boot = self.vcpu = self.io = 0.0
        self.guest = 0.0
        self.cases = []
        self.profile = None

    def summary(self):
        return ('%.0f s (boot %.1f s; guest %.0f s; QEMU CPU %.0f s vCPU '
                '+ %.1f s I/O)' % (self.wall, self.boot, self.guest,
                                   self.vcpu, self.io))


# test_bridge_fdb_stress.sh adds and deletes one static entry in a loop
# while it dumps the FDB, and always exits 0: "Please check kernel log for
# errors". Its verdict is ours: no error in the kernel log while it ran
# (DSA's "failed to add/delete ... fdb: -ERR", the switch driver's), and
# the switch's address table (the model's, `qom-get` of its "fdb"
# property) ends as it began, with no entry left for the address.
FDB_STRESS = 'test_bridge_fdb_stress.sh'
FDB_STRESS_MAC = '00:01:02:03:04:05'


def switch_fdb(b, bed=MT7621):
    """@bed's switch model's live address table, one entry a line ("MAC
    vid|fid KEY ports 0xMAP static|dynamic" on the MT7530, "MAC vidx
    INDEX ports 0xMAP static|dynamic" on the ESW), and the monitor's
    answer; the table is None if the answer is not a string."""
    out = b.hmp('qom-get %s fdb' % bed.switch_qom)
    table = json.loads(out.strip()) if out.strip().startswith('"') else None
    return table, out


# What a guest's dmesg must not hold after a test
OOPS = r'WARNING:|BUG:|Oops|Call Trace|kernel BUG'


def kmemleak_start(b):
    """Forget what kmemleak (the board booted with `kmemleak=on`) found so
    far: boot-time objects are not a test's."""
    b.check('mount -t debugfs none /sys/kernel/debug 2>/dev/null; '
            'test -e /sys/kernel/debug/kmemleak')
    b.check('echo scan > /sys/kernel/debug/kmemleak; '
            'echo clear > /sys/kernel/debug/kmemleak', timeout=300)


def kmemleak_leaks(b):
    """What kmemleak reports since kmemleak_start(), '' for nothing. It
    reports no object younger than 5 s (its minimum age): a leak made
    just before would go unseen (a leak in the switch reset's path did,
    until the wait), so it first waits that long; then two scans, as an
    object is reported once no scan found a reference to it."""
    return b.check('sleep 5; echo scan > /sys/kernel/debug/kmemleak; '
                   'sleep 2; echo scan > /sys/kernel/debug/kmemleak; '
                   'cat /sys/kernel/debug/kmemleak', timeout=300).strip()


def dmesg_lines(b):
    """How many lines the guest's dmesg has: new_oopses() from there."""
    return int(b.check('dmesg | wc -l').strip())


def new_oopses(b, since=0):
    """What dmesg holds of OOPS after its first @since lines (with 12 lines
    of context each, 40 at most); empty if nothing."""
    return b.check('dmesg | tail -n +%d | grep -E -A 12 "%s" | head -40; true'
                   % (since + 1, OOPS)).strip()


def no_oops(suite, b, name):
    """A result: @name's guest dmesg holds no OOPS at all."""
    oops = new_oopses(b)
    return suite.result(not oops, '%s: no WARNING, BUG or Oops in the guest'
                        % name, oops)


def carrier(b, ifaces, timeout=10):
    """Wait up to @timeout seconds for every one of @ifaces to have carrier
    (LOWER_UP: a PHY's autonegotiation takes seconds); True if they do."""
    st, _ = b.run('(for t in $(seq %d); do up=1; for i in %s; do ip link '
                  'show $i | grep -q LOWER_UP || up=0; done; [ $up = 1 ] && '
                  'exit 0; sleep 0.1; done; exit 1)'
                  % (timeout * 10, ' '.join(ifaces)), timeout=timeout * 3 + 30)
    return st == 0


def netdev_stat(b, dev, name):
    """@dev's counter @name (/sys/class/net/DEV/statistics)."""
    return int(b.check('cat /sys/class/net/%s/statistics/%s' % (dev, name)))


def ethtool_stats(b, dev):
    """`ethtool -S @dev` as a dict of counters."""
    out = b.check('ethtool -S %s' % dev)
    return {k: int(v) for k, v in re.findall(r'^\s*(\S+): (\d+)$', out, re.M)}


def fdb_stress_state(b, bed):
    """(kernel errors, the switch's static entries) now."""
    errors = b.check('dmesg --level=emerg,alert,crit,err; true').splitlines()
    table, out = switch_fdb(b, bed)
    static = None if table is None else sorted(
        ln for ln in table.splitlines() if ln.endswith(' static'))
    return errors, static, table, out


def fdb_stress_verdict(before, after, bed):
    name = FDB_STRESS + ': '
    res = []
    seen = set(ln.strip() for ln in before[0])
    new = [ln for ln in after[0] if ln.strip() and ln.strip() not in seen]
    res.append((' OK' if not new else 'FAIL',
                name + 'no kernel error while the FDB was stressed',
                '\n'.join(new)))
    if after[2] is None or before[2] is None:
        res.append(('FAIL', name + "the switch's address table ends as it "
                    'began', 'qom-get %s fdb: %s'
                    % (bed.switch_qom, after[3])))
        return res
    left = [ln for ln in after[2].splitlines()
            if ln.startswith(FDB_STRESS_MAC)]
    ok = not left and after[1] == before[1]
    res.append((' OK' if ok else 'FAIL', name + "the switch's address "
                'table ends as it began (no entry left for %s)'
                % FDB_STRESS_MAC, 'static entries before:\n%s\nafter:\n%s'
                % ('\n'.join(before[1]), '\n'.join(after[2].splitlines()))))
    return res


def uptime(b):
    return float(b.check('cat /proc/uptime').split()[0])


def expected_cases():
    """{script: Counter of its case names} from CASES_FILE."""
    cases = {}
    with open(CASES_FILE) as f:
        for ln in f:
            if ln.strip() and not ln.startswith('#'):
                script, case = ln.rstrip('\n').split(': ', 1)
                cases.setdefault(script, collections.Counter())[case] += 1
    return cases


def run_script(script, driver_set, log, bed=MT7621):
    """Boot, load @driver_set, run @script; return (results, Timing).

    A script stopped by a known hang is run again from the tests after it
    (Limit.rerun); every case CASES_FILE lists for the script gets a
    line: one that never reported is a failure."""
    results, tm = run_board(script, driver_set, log, bed=bed)
    for lim in LIMITS:
        if lim.rerun and lim.script == script and lim.on_bed(bed.name) and any(
                name == '%s: %s' % (script, lim.stalled)
                for _, name, _ in results):
            more, tm2 = run_board(script, driver_set,
                                  log.replace('.log', '-rerun.log'),
                                  tests=lim.rerun, bed=bed)
            seen = collections.Counter(name for _, name, _ in results)
            for r in more:
                if seen[r[1]]:
                    seen[r[1]] -= 1     # run before the hang already
                else:
                    results.append(r)
            for k in ('wall', 'boot', 'vcpu', 'io', 'guest'):
                setattr(tm, k, getattr(tm, k) + getattr(tm2, k))
            tm.cases += tm2.cases
    want = expected_cases().get(script, collections.Counter())
    got = collections.Counter(name.split(': ', 1)[1] for _, name, _ in results
                              if name.startswith(script + ': '))
    for case, n in (want - got).items():
        for _ in range(n):
            results.append(('FAIL', '%s: %s' % (script, case),
                            'the case never reported (listed in %s)'
                            % os.path.relpath(CASES_FILE)))
    return results, tm


def run_board(script, driver_set, log, tests=None, bed=MT7621):
    """Boot @bed, load @driver_set, run @script (only @tests, its TESTS,
    if given); return (results, Timing)."""
    tm = Timing()
    samples_file = '/tmp/run-selftest.samples'
    b = Board(bed.board, dtb=bed.dtb, extra=loop_args(bed),
              virtual_clock=bed.shift, nosmp=True, norandmaps=True,
              expect=EXPECT.get(script, 0), mem=bed.mem,
              rootfs=bed.rootfs)
    try:
        tm.boot = b.wait_ready()
        b.check('%s %s %s' % (LOAD, driver_set, ' '.join(IFACES)), timeout=120)
        if PROFILE:
            # accton fails (EAGAIN) on a file it has to create itself.
            b.check('touch %s && accton %s' % (PACCT, PACCT))
        if script == FDB_STRESS:
            before = fdb_stress_state(b, bed)
        t0 = uptime(b)
        _, out = b.run('cd %s && %sSELFTEST_SAMPLES=%s %s %d %d ./%s %s; '
                       'cd /' % (KSELFTEST, 'TESTS="%s" ' % tests if tests
                                 else '', samples_file, RUN, SCRIPT_TIMEOUT,
                          STALL.get(script, SCRIPT_TIMEOUT), script,
                          ' '.join(IFACES)), timeout=SCRIPT_TIMEOUT + 60)
        tm.guest = uptime(b) - t0
        if PROFILE:
            b.check('accton off')
            # Per program: calls, elapsed (re) and CPU (cp) minutes
            # (tick-sampled: 10 ms units at HZ=100), kernel-worker
            # entries folded into "***other" below 1 % (-l: user and
            # system apart).
            tm.profile = b.check('sa -a -l %s | head -n 40' % PACCT)
        samples = [(float(up), int(n)) for up, n in (
            ln.split() for ln in b.check('cat %s' % samples_file).split('\n')
            if ln.strip())]
        if log:
            with open(log, 'w') as f:
                f.write(out)
        results = parse(script, out, driver_set, bed)
        names = [m.group(1).strip() for m in (
            TEST_LINE.match(ln.strip()) for ln in out.splitlines()) if m]
        tm.cases = list(zip(names, case_times(t0, samples, len(names))))
        _, dmesg = b.run('dmesg | grep -E "Oops|BUG:|WARNING:|Call Trace" '
                         '| head -n 20')
        if dmesg.strip():
            results.append(('FAIL', '%s: no Oops, BUG or WARNING in dmesg'
                            % script, dmesg))
        elif script == FDB_STRESS:
            results.append((' OK', '%s: no Oops, BUG or WARNING in dmesg'
                            % script, ''))
        if script == FDB_STRESS:
            results += fdb_stress_verdict(before, fdb_stress_state(b, bed),
                                          bed)
        cpu = b.cpu_times()
        tm.vcpu, tm.io = cpu['vcpu'], cpu['io']
    finally:
        b.close()
        tm.wall = b.wall
    bad = b.log_problems()
    results.append((' OK' if not bad else 'FAIL', '%s: %s%s' % (
        script, LOG_VERDICT, ' (rerun)' if tests else ''),
        '\n'.join(bad[:30])))
    return results, tm


def report(suite, results):
    """Print one script's @results as TAP lines of @suite."""
    for verdict, name, msg in results:
        if verdict in ('OK', ' OK'):
            suite.ok(name)
        elif verdict == 'XFAIL':
            # Not a pass of what the case checks: marked, so that
            # tests/dsa-table.py counts it apart
            suite.ok(name + XFAIL_MARK)
            suite.comment('expected failure (XFAIL): %s' % msg)
        elif verdict == 'SKIP':
            suite.skip(name, msg or 'the script skipped it')
        else:
            suite.fail(name, msg)


def run_all(suite, driver_set, scripts=None, boards=None, bed=MT7621):
    """Run @scripts (default: all) on parallel boards; report to @suite
    each script's lines as soon as it ends, with a progress comment.

    Per script, its time (Timing) goes to a comment and to
    build/selftests/<suite>/times.txt, and its guest seconds per case to
    build/selftests/<suite>/<script>.times."""
    scripts = list(scripts or SCRIPTS)
    boards = boards or int(os.environ.get('DSA_BOARDS', os.cpu_count() or 1))
    logdir = os.path.join(os.environ.get('BUILD', os.path.join(
        os.path.dirname(__file__), '..', '..', 'build')), 'selftests',
        suite.name)
    os.makedirs(logdir, exist_ok=True)
    work = queue.Queue()
    for s in scripts:
        work.put(s)
    lock = threading.Lock()
    done = []
    times = {}

    def worker():
        while True:
            try:
                script = work.get_nowait()
            except queue.Empty:
                return
            log = os.path.join(logdir, script.replace('.sh', '.log'))
            tm = None
            try:
                res, tm = run_script(script, driver_set, log, bed)
            except Exception as e:  # a hung or dead board: the script fails
                res = [('FAIL', script, 'board: %s' % e)]
            with lock:
                done.append(script)
                report(suite, res)
                suite.comment('%s: log in %s' % (script, os.path.relpath(log)))
                if tm:
                    times[script] = tm
                    suite.comment('%s: %s' % (script, tm.summary()))
                    with open(log[:-4] + '.times', 'w') as f:
                        for name, secs in tm.cases:
                            f.write('%7.1f %s\n' % (secs, name))
                    if tm.profile:
                        with open(log[:-4] + '.profile', 'w') as f:
                            f.write(tm.profile)
                suite.progress(len(done), len(scripts), 'scripts')

    suite.progress(0, len(scripts), 'scripts')
    threads = [threading.Thread(target=worker) for _ in range(boards)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(os.path.join(logdir, 'times.txt'), 'w') as f:
        f.write('# script wall_s boot_s guest_s vcpu_s io_s\n')
        for script in scripts:
            tm = times.get(script)
            if tm:
                f.write('%s %.0f %.1f %.0f %.0f %.1f\n' % (
                    script, tm.wall, tm.boot, tm.guest, tm.vcpu, tm.io))
