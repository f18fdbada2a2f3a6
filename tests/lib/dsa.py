# SPDX-License-Identifier: GPL-2.0
"""The kernel's DSA selftests on the emulated board, one TAP line per case.

Each script of tools/testing/selftests/drivers/net/dsa/ (6.12, in the guest
at /usr/lib/kselftest) runs on a freshly booted board with the test DT that
enables all five switch ports; QEMU loops port 0 to port 1 and port 2 to
port 3 through two hubs, so the scripts' pairs (p1, p2) and (p3, p4) are
cabled to each other. Scripts run on several boards at once (DSA_BOARDS,
default: the host's CPU count), the longest first.

A `TEST: <case> [ OK ]` line becomes `ok - <suite>: <script>: <case>`;
FAIL a `not ok` with the script's message; SKIP a skip with its message;
XFAIL (a failure the script itself expects) an `ok` with a comment. A
script that prints no TEST line and exits with kselftest's skip status (4)
is one skip line naming its reason.
"""

import os
import queue
import re
import threading

from board import Board

DTB = 'mt7621-gnubee-gb-pc1-dsa.dtb'
IFACES = ['swp0', 'swp1', 'swp2', 'swp3']
KSELFTEST = '/usr/lib/kselftest/drivers/net/dsa'
LOAD = '/usr/lib/ralink-fe/load-drivers.sh'
KSFT_SKIP = 4

# All scripts of the 6.12 directory, longest first (measured here).
SCRIPTS = [
    'test_bridge_fdb_stress.sh',
    'bridge_vlan_aware.sh',
    'bridge_vlan_unaware.sh',
    'bridge_mdb.sh',
    'bridge_mld.sh',
    'bridge_vlan_mcast.sh',
    'bridge_locked_port.sh',
    'local_termination.sh',
    'no_forwarding.sh',
    'tc_actions.sh',
]

# Per script, in seconds of guest time under TCG.
SCRIPT_TIMEOUT = 1200

# Cases that fail for a reason outside the model, keyed by driver set and
# script, each matched on the failure message the script prints; any other
# failure of the same case stays a failure. Reported as skips that name the
# reason; the evidence is next to each entry. Only a case's first failed
# check prints a message: the bridge_mld pattern is the last check of its
# cases; the locked-port one is not (the pings after "locked on" go
# unchecked while the driver cannot lock the port).
LIMITS = {
    # MT7530 forwards multicast on destination MAC (the address table has
    # no IP source): traffic from an excluded source is forwarded like any
    # other to the group. brmcast_check_sg_fwding 0 is the last check of
    # every bridge_mld.sh case.
    ('*', 'bridge_mld.sh'): [
        (r'^Forwarded traffic for blocked S,G',
         'hardware limit: the MT7530 forwards multicast by destination MAC,'
         ' it cannot filter by source (S,G)')],
    # mt7530_port_pre_bridge_flags() in 6.12 accepts learning and the
    # three flood flags only: "bridge flag offload is not supported".
    ('mainline', 'bridge_locked_port.sh'): [
        (r'^Ping(6| through vlan)? worked after locking port, but before '
         r'adding FDB entry',
         "mainline's mt7530 driver does not offload locked ports (its "
         "port_pre_bridge_flags refuses BR_PORT_LOCKED)")],
}
# Ours refuses BR_PORT_LOCKED too: the MT7530's address table has no
# per-port mode that keeps frames from unknown source addresses from being
# forwarded (PSC.SA_DIS only stops learning), nor does the model have one;
# rsw_port_pre_bridge_flags() says "the switch cannot lock a port".
for _set in ('ours', 'mainline-eth+ours-dsa'):
    LIMITS[(_set, 'bridge_locked_port.sh')] = [
        (r'^Ping(6| through vlan)? worked after locking port, but before '
         r'adding FDB entry',
         'the MT7530 cannot lock a port (no unknown-source-address drop '
         'or trap per port); ralink_mt7530 refuses BR_PORT_LOCKED')]

TEST_LINE = re.compile(r'^TEST: (.*?)\s*\[\s*(OK|FAIL|SKIP|XFAIL)\s*\]\s*$')


def loop_args():
    """QEMU arguments: ports 0<->1 and 2<->3 on two hubs."""
    args = []
    for port in range(4):
        hub = 1 + port // 2
        args += ['-netdev', 'hubport,id=sw%d,hubid=%d' % (port, hub),
                 '-net', 'nic,netdev=sw%d,model=mt7530' % port]
    return args


def limit(driver_set, script, msg):
    """The reason a failure with @msg is a known limit, or None."""
    for key in ((driver_set, script), ('*', script)):
        for pattern, why in LIMITS.get(key, []):
            if re.match(pattern, msg):
                return why
    return None


def parse(script, status, out, driver_set=None):
    """TAP results (verdict, name, diag) of one script's output."""
    lines = out.splitlines()
    results = []
    skipped = 0
    for i, line in enumerate(lines):
        m = TEST_LINE.match(line.strip())
        if not m:
            # A case the script skips before it gets a TEST line, saying
            # why ("SKIP: iproute2 too old; ..."): a skip of its own.
            if line.startswith('SKIP: '):
                skipped += 1
                results.append(('SKIP', '%s: case skipped #%d'
                                % (script, skipped), line[6:].strip()))
            continue
        case, verdict = m.group(1).strip(), m.group(2)
        msg = []
        for follow in lines[i + 1:]:
            if not follow.startswith('\t'):
                break
            msg.append(follow.strip())
        why = limit(driver_set, script, msg[0]) if (
            verdict == 'FAIL' and msg) else None
        if why:
            verdict, msg = 'SKIP', ['%s (the script: %s)' % (why, msg[0])]
        results.append((verdict, '%s: %s' % (script, case), '\n'.join(msg)))
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


def run_script(script, driver_set, log):
    """Boot, load @driver_set, run @script; return (results, notes)."""
    notes = []
    with Board('gnubee-pc1', dtb=DTB, extra=loop_args()) as b:
        b.wait_ready()
        b.check('%s %s %s' % (LOAD, driver_set, ' '.join(IFACES)), timeout=120)
        status, out = b.run('cd %s && %s ./%s %s; cd /' % (
            KSELFTEST, 'timeout %d' % SCRIPT_TIMEOUT, script,
            ' '.join(IFACES)), timeout=SCRIPT_TIMEOUT + 60)
        if log:
            with open(log, 'w') as f:
                f.write(out)
        results = parse(script, status, out, driver_set)
        _, dmesg = b.run('dmesg | grep -E "Oops|BUG:|WARNING:|Call Trace" '
                         '| head -n 20')
        if dmesg.strip():
            results.append(('FAIL', '%s: no Oops, BUG or WARNING in dmesg'
                            % script, dmesg))
        elif script == 'test_bridge_fdb_stress.sh':
            results.append((' OK', '%s: no Oops, BUG or WARNING in dmesg'
                            % script, ''))
    return results, notes


def run_all(suite, driver_set, scripts=None, boards=None):
    """Run @scripts (default: all) on parallel boards; report to @suite."""
    scripts = list(scripts or SCRIPTS)
    boards = boards or int(os.environ.get('DSA_BOARDS', os.cpu_count() or 1))
    logdir = os.path.join(os.environ.get('BUILD', os.path.join(
        os.path.dirname(__file__), '..', '..', 'build')), 'selftests',
        suite.name)
    os.makedirs(logdir, exist_ok=True)
    work = queue.Queue()
    for s in scripts:
        work.put(s)
    done = {}
    lock = threading.Lock()

    def worker():
        while True:
            try:
                script = work.get_nowait()
            except queue.Empty:
                return
            log = os.path.join(logdir, script.replace('.sh', '.log'))
            try:
                res, _ = run_script(script, driver_set, log)
            except Exception as e:  # a hung or dead board: the script fails
                res = [('FAIL', script, 'board: %s' % e)]
            with lock:
                done[script] = res

    threads = [threading.Thread(target=worker) for _ in range(boards)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Report in the directory's order, whatever order they finished in.
    for script in scripts:
        for verdict, name, msg in done.get(script, []):
            if verdict in ('OK', ' OK'):
                suite.ok(name)
            elif verdict == 'XFAIL':
                suite.ok(name)
                suite.comment('expected failure (XFAIL): %s' % msg)
            elif verdict == 'SKIP':
                suite.skip(name, msg or 'the script skipped it')
            else:
                suite.fail(name, msg)
        suite.comment('%s: log in %s' % (script, os.path.relpath(
            os.path.join(logdir, script.replace('.sh', '.log')))))
