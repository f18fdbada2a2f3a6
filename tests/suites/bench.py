#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench: `make bench QUICK=1` runs and its results make sense.

Benchmarks are not pass/fail (../shared/TESTING.md); this suite checks
only that the bench works: bench/bench.py with QUICK=1 (a few thousand
frames a row) exits 0, writes every row (the MT7621's, route-nat-64 and
route-nat-64-offload among them, the MT7628's and the MT7620A's) with a
number for both driver sets, whole path, the drivers' own share and the
uncached accesses (`-` only where a set has no such path: XDP with
mainline's drivers, and every MT7620A row with mainline's, which has no
driver for its frame engine or switch; a row that lost frames has no
number), the drivers' own share is a part of the whole (above 0, below
it) and the uncached accesses are above 0 wherever a frame reaches the
CPU, and the rows whose frames never reach the CPU (switched by the
switch, or routed by the PPE: route-nat-64-offload) cost under
SWITCHED_MAX of the row their board forwards through the CPU. bench.py
itself fails on a QEMU log line that tests/lib/board.py does not
explain, and if route-nat-64's or route-nat-64-offload's frames did not
reach B masqueraded, or the latter's flow was not offloaded. The results
go to build/tests/bench/bench-results.txt, not to
build/bench-results.txt.
"""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import BUILD, TOP  # noqa: E402
from tap import Suite  # noqa: E402

OUT = os.path.join(BUILD, 'tests', 'bench')
RESULTS = os.path.join(OUT, 'bench-results.txt')
ROWS = ['rx-udp-64', 'rx-udp-1500', 'tx-udp-64', 'tx-udp-1500',
        'bridge-cpu-64', 'switched-64', 'xdp-drop-64', 'route-nat-64',
        'route-nat-64-offload',
        'mt7628/rx-udp-64', 'mt7628/rx-udp-1500', 'mt7628/tx-udp-64',
        'mt7628/tx-udp-1500', 'mt7628/xdp-drop-64',
        'mt7620a/rx-udp-64', 'mt7620a/rx-udp-1500', 'mt7620a/tx-udp-64',
        'mt7620a/tx-udp-1500', 'mt7620a/bridge-cpu-64',
        'mt7620a/switched-64', 'mt7620a/xdp-drop-64']
MAINLINE_COLUMNS = ('mainline', 'ratio', 'own-mainline', 'own-ratio',
                    'unc-mainline', 'unc-ratio')
# (row, column) where `-` is the right answer: mainline has no XDP on
# the MT7621 or the MT7628, and no driver for the MT7620's frame engine
# or its GSW (6.12), so no MT7620A row at all.
NO_PATH = {(r, c) for r in ROWS if r.endswith('xdp-drop-64') or
           r.startswith('mt7620a/') for c in MAINLINE_COLUMNS}
# The switched rows (the switch's, the PPE's) and the CPU-forwarded rows
# they are held against
SWITCHED = {'switched-64': 'bridge-cpu-64',
            'mt7620a/switched-64': 'mt7620a/bridge-cpu-64',
            'route-nat-64-offload': 'route-nat-64'}
COLUMNS = ['mainline', 'ours', 'ratio', 'own-mainline', 'own-ours',
           'own-ratio', 'unc-mainline', 'unc-ours', 'unc-ratio']
SWITCHED_MAX = 0.05


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def main():
    suite = Suite('bench')
    os.makedirs(OUT, exist_ok=True)
    env = dict(os.environ, QUICK='1', BENCH_RESULTS=RESULTS)
    if os.path.exists(RESULTS):
        os.unlink(RESULTS)
    t0 = time.monotonic()
    proc = subprocess.run([os.path.join(TOP, 'bench', 'bench.py')],
                          env=env, capture_output=True, text=True,
                          timeout=1800)
    secs = time.monotonic() - t0
    suite.result(proc.returncode == 0, 'QUICK=1 bench/bench.py runs and '
                 'exits 0', 'exit status %d:\n%s' % (proc.returncode,
                                                     proc.stderr))
    suite.comment('QUICK bench: %.0f s' % secs)
    suite.comment(proc.stdout)

    rows = {}
    if os.path.exists(RESULTS):
        with open(RESULTS) as f:
            for line in f:
                fields = line.split()
                if fields and not line.startswith('#'):
                    rows[fields[0]] = fields[1:]
    bad = []
    for row in ROWS:
        cells = rows.get(row)
        if cells is None or len(cells) != len(COLUMNS):
            bad.append('%s: %s' % (row, 'missing' if cells is None
                                   else 'fields %s' % cells))
            continue
        for col, cell in zip(COLUMNS, cells):
            if (row, col) in NO_PATH:
                if cell != '-':
                    bad.append('%s %s: %r, expected -' % (row, col, cell))
            elif number(cell) is None:
                bad.append('%s %s: %r is not a number' % (row, col, cell))
    suite.result(not bad, 'the results have every row with a number for '
                 'each driver set, whole path, drivers\' own and uncached '
                 'accesses (- only for XDP and the MT7620A with mainline)',
                 '\n'.join(bad) or None)

    def value(row, col):
        cells = rows.get(row) or []
        i = COLUMNS.index(col)
        return number(cells[i]) if len(cells) > i else None

    parts, uncached = [], []
    for row in ROWS:
        if row in SWITCHED:
            continue
        for col in ('mainline', 'ours'):
            whole, own = value(row, col), value(row, 'own-' + col)
            if (row, col) in NO_PATH:
                continue
            if whole is None or own is None or not 0 < own < whole:
                parts.append('%s %s: own %s of %s' % (row, col, own, whole))
            unc = value(row, 'unc-' + col)
            if unc is None or not unc > 0:
                uncached.append('%s %s: %s' % (row, col, unc))
    suite.result(not parts, 'where frames reach the CPU, the drivers\' own '
                 'instructions are a part of the whole (above 0, below it)',
                 '\n'.join(parts) or None)
    suite.result(not uncached, 'where frames reach the CPU, they cost '
                 'uncached accesses (the descriptors, the frame engine\'s '
                 'registers)', '\n'.join(uncached) or None)

    for switched, fwd in SWITCHED.items():
        for col in ('mainline', 'ours'):
            if (switched, col) in NO_PATH:
                continue
            sw, cpu = value(switched, col), value(fwd, col)
            ok = sw is not None and cpu is not None and cpu > 0 and (
                sw < SWITCHED_MAX * cpu)
            suite.result(ok, '%s %s: frames past the CPU cost under %d %% '
                         'of those %s forwards through it' % (
                             switched, col, SWITCHED_MAX * 100, fwd),
                         '%s %s, %s %s instructions/frame'
                         % (switched, sw, fwd, cpu))
    return 1 if suite.failed else 0


if __name__ == '__main__':
    sys.exit(main())
