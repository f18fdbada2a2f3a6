#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the README's tables of the DSA selftests.

    tests/dsa-table.py [TAP...]   per script, cases passed/failed/skipped
                                  for each driver suite found (mainline-dsa,
                                  ours-dsa, esw-selftests) in the TAP
                                  streams (default
                                  build/test-results.tap)
    tests/dsa-table.py --times    per script and suite, from the last run's
                                  build/selftests/<suite>/times.txt: host
                                  seconds from QEMU's start to its end, to
                                  the shell, guest seconds of the script,
                                  host CPU of the vCPU and I/O threads
    tests/dsa-table.py --profile  per program, over every script of each
                                  suite: calls and guest CPU seconds, from
                                  the <script>.profile files of a
                                  DSA_PROFILE=1 run (BSD process accounting)
"""

import collections
import os
import re
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
LINE = re.compile(r'^(ok|not ok)(?: \d+)? - '
                  r'(mainline-dsa|ours-dsa|esw-selftests): '
                  r'([\w.-]+\.sh)(?:: (.*?))?( # SKIP.*)?$')


SUITES = ['mainline-dsa', 'ours-dsa', 'esw-selftests']
sys.path.insert(0, os.path.join(TOP, 'tests', 'lib'))
from board import LOG_VERDICT  # noqa: E402
from dsa import XFAIL_MARK  # noqa: E402

# What a case checks, for the pass counts: "neg" cases pass when traffic
# does NOT arrive (a switch that forwards nothing passes them), "ctl" ones
# check configuration, dumps or timers with no traffic verdict, all others
# ("pos") need traffic to arrive (some also check that other traffic does
# not). From the scripts' check_rcv/check_fail calls (6.12).
NEGATIVE = {
    # every case: traffic between ports that must not forward
    'no_forwarding.sh': r'',
    # should_receive false: unknown groups, and unknown unicast on the
    # interfaces that filter unicast (not the bridges themselves)
    'local_termination.sh': r'(.*: Multicast IPv[46] to unknown group$|'
                            r'(swp\d|VLAN upper|VLAN over .* bridged port): '
                            r'Unicast IPv4 to unknown MAC address'
                            r'(, allmulti)?$)',
}
CONTROL = {
    'bridge_vlan_mcast.sh': r'(Vlan .*(option|default value|existence)|'
                            r'.*snooping (enable|control)|Disable multicast)',
    'bridge_mdb.sh': r'.*(configuration tests|dump tests|Flush tests)',
    'bridge_locked_port.sh': r'Locked port MAB (configuration|FDB flush)$',
    # the kernel log and the switch's table after the stress
    'test_bridge_fdb_stress.sh': r'',
}


def case_kind(script, case):
    if (case or '').startswith(LOG_VERDICT):
        return 'ctl'
    if script in NEGATIVE and re.match(NEGATIVE[script], case or ''):
        return 'neg'
    if script in CONTROL and re.match(CONTROL[script], case or ''):
        return 'ctl'
    return 'pos'
SELFTESTS = os.path.join(os.environ.get('BUILD', os.path.join(TOP, 'build')),
                         'selftests')


def times():
    rows = {}
    for suite in SUITES:
        try:
            with open(os.path.join(SELFTESTS, suite, 'times.txt')) as f:
                for line in f:
                    if not line.startswith('#') and line.strip():
                        name, *vals = line.split()
                        rows.setdefault(name, {})[suite] = [float(v)
                                                            for v in vals]
        except OSError:
            pass
    print('| script | ' + ' | '.join(
        '%s wall / boot / guest / vCPU / I/O (s)' % s for s in SUITES) + ' |')
    print('| --- |' + ' --- |' * len(SUITES))
    total = {s: [0.0] * 5 for s in SUITES}
    for name, per in rows.items():
        cells = []
        for s in SUITES:
            v = per.get(s)
            if v:
                total[s] = [a + b for a, b in zip(total[s], v)]
            cells.append('%.0f / %.1f / %.0f / %.0f / %.1f' % tuple(v)
                         if v else '-')
        print('| %s | %s |' % (name, ' | '.join(cells)))
    print('| total | %s |' % ' | '.join(
        '%.0f / %.1f / %.0f / %.0f / %.1f' % tuple(total[s]) for s in SUITES))


def profile():
    """sa -a -l lines: calls, re, u, s, avio, k, command (minutes)."""
    per = collections.defaultdict(lambda: collections.defaultdict(
        lambda: [0, 0.0]))
    for suite in SUITES:
        d = os.path.join(SELFTESTS, suite)
        if not os.path.isdir(d):
            continue
        for fn in sorted(os.listdir(d)):
            if not fn.endswith('.profile'):
                continue
            for line in open(os.path.join(d, fn)):
                f = line.split()
                if len(f) < 7:
                    continue
                cmd = f[6].rstrip('*')
                # A script's forked subshells ("name*") count as the shell.
                # (comm: 15 characters at most)
                if cmd.endswith('.sh') or (fn[:-8] + '.sh').startswith(cmd):
                    cmd = 'bash (the scripts)'
                cpu = (float(f[2].rstrip('u')) + float(f[3].rstrip('s'))) * 60
                per[cmd][suite][0] += int(f[0])
                per[cmd][suite][1] += cpu
    order = sorted(per, key=lambda c: -sum(v[1] for v in per[c].values()))
    print('| program | ' + ' | '.join('%s calls / guest CPU s' % s
                                       for s in SUITES) + ' |')
    print('| --- |' + ' --- |' * len(SUITES))
    for cmd in order[:12]:
        print('| %s | %s |' % (cmd, ' | '.join(
            '%d / %.0f' % tuple(per[cmd][s]) for s in SUITES)))
    print('| all | %s |' % ' | '.join('%d / %.0f' % (
        sum(per[c][s][0] for c in per), sum(per[c][s][1] for c in per))
        for s in SUITES))


def main():
    if sys.argv[1:] == ['--times']:
        return times()
    if sys.argv[1:] == ['--profile']:
        return profile()
    paths = sys.argv[1:] or [os.path.join(TOP, 'build', 'test-results.tap')]
    counts = collections.defaultdict(lambda: collections.Counter())
    suites, scripts = [], []
    for line in (ln for p in paths for ln in open(p)):
        m = LINE.match(line.rstrip('\n'))
        if not m:
            continue
        status, suite, script, case, skip = m.groups()
        if suite not in suites:
            suites.append(suite)
        if script not in scripts:
            scripts.append(script)
        kind = 'skip' if skip else 'pass' if status == 'ok' else 'fail'
        if kind == 'pass' and (case or '').endswith(XFAIL_MARK):
            kind = 'xfail'
        counts[(suite, script)][kind] += 1
        if kind == 'pass':
            counts[(suite, script)][case_kind(script, case)] += 1
    print('| script | ' + ' | '.join(
        '%s pass (traffic arrives / must not / control) / XFAIL / fail / '
        'skip' % s
        for s in suites) + ' |')
    print('| --- |' + ' --- |' * len(suites))
    total = collections.defaultdict(collections.Counter)

    def cell(c):
        return '%d (%d / %d / %d) / %d / %d / %d' % (
            c['pass'], c['pos'], c['neg'], c['ctl'], c['xfail'], c['fail'],
            c['skip'])
    for script in sorted(scripts):
        cells = []
        for s in suites:
            c = counts[(s, script)]
            total[s].update(c)
            cells.append(cell(c))
        print('| %s | %s |' % (script, ' | '.join(cells)))
    print('| total | %s |' % ' | '.join(cell(total[s]) for s in suites))


if __name__ == '__main__':
    main()
