#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the README's table of DSA selftest results from TAP streams
(default build/test-results.tap; or the files given, e.g. a suite's own
output): per script, cases passed/failed/skipped for each driver suite
found (mainline-dsa, ours-dsa)."""

import collections
import os
import re
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
LINE = re.compile(r'^(ok|not ok)(?: \d+)? - (mainline-dsa|ours-dsa): '
                  r'([\w.-]+\.sh)(?:: (.*?))?( # SKIP.*)?$')


def main():
    paths = sys.argv[1:] or [os.path.join(TOP, 'build', 'test-results.tap')]
    counts = collections.defaultdict(lambda: collections.Counter())
    suites, scripts = [], []
    for line in (ln for p in paths for ln in open(p)):
        m = LINE.match(line.rstrip('\n'))
        if not m:
            continue
        status, suite, script, _, skip = m.groups()
        if suite not in suites:
            suites.append(suite)
        if script not in scripts:
            scripts.append(script)
        kind = 'skip' if skip else 'pass' if status == 'ok' else 'fail'
        counts[(suite, script)][kind] += 1
    print('| script | ' + ' | '.join(
        '%s pass/fail/skip' % s for s in suites) + ' |')
    print('| --- |' + ' --- |' * len(suites))
    total = collections.defaultdict(collections.Counter)
    for script in sorted(scripts):
        cells = []
        for s in suites:
            c = counts[(s, script)]
            total[s].update(c)
            cells.append('%d / %d / %d' % (c['pass'], c['fail'], c['skip']))
        print('| %s | %s |' % (script, ' | '.join(cells)))
    print('| total | %s |' % ' | '.join(
        '%d / %d / %d' % (total[s]['pass'], total[s]['fail'],
                          total[s]['skip']) for s in suites))


if __name__ == '__main__':
    main()
