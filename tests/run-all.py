#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the test suites, number their TAP lines, print the tally.

Suites are executables in tests/suites/ printing un-numbered TAP lines
(tests/lib/tap.py). They boot their own emulated boards, so several run
at once (-j, default: the number of host CPUs); their lines are numbered
in the order they arrive. The stream also goes to build/test-results.tap.
"""

import argparse
import os
import re
import subprocess
import sys
import threading
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
BUILD = os.environ.get('BUILD', os.path.join(TOP, 'build'))

# In the order they start: the longest first.
SUITES = ['mainline-dsa', 'ours-dsa', 'ours-eth', 'model', 'model-net',
          'patches', 'bench', 'cm-region', 'board']
# The two DSA suites start together, one board each: on 2 host CPUs that
# is as fast as one after the other with two boards each, and the other
# suites (about 10 min in all) follow when the first DSA suite ends.
DSA_BOARDS = '1'

RESULT = re.compile(r'^(not ok|ok) - (.*)$')


class Tally:
    def __init__(self, out):
        self.lock = threading.Lock()
        self.out = out
        self.n = self.passed = self.failed = self.skipped = 0

    def line(self, text):
        with self.lock:
            m = RESULT.match(text)
            if m:
                self.n += 1
                text = '%s %d - %s' % (m.group(1), self.n, m.group(2))
                if m.group(1) == 'not ok':
                    self.failed += 1
                elif ' # SKIP' in m.group(2):
                    self.skipped += 1
                else:
                    self.passed += 1
            sys.stdout.write(text + '\n')
            sys.stdout.flush()
            self.out.write(text + '\n')
            self.out.flush()


def run_suite(name, tally):
    path = os.path.join(TOP, 'tests', 'suites', name.replace('-', '_') + '.py')
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, path], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    results = 0
    for line in proc.stdout:
        line = line.rstrip('\n')
        if RESULT.match(line):
            results += 1
        tally.line(line)
    err = proc.stderr.read()
    proc.wait()
    if proc.returncode or not results:
        tally.line('not ok - %s: suite ran to completion (exit status %d)'
                   % (name, proc.returncode))
        for e in err.splitlines()[-20:]:
            tally.line('# ' + e)
    tally.line('# %s: %.0f s' % (name, time.monotonic() - start))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('-j', type=int, default=os.cpu_count() or 1)
    ap.add_argument('suites', nargs='*', default=SUITES)
    args = ap.parse_args()

    os.environ.setdefault('DSA_BOARDS', DSA_BOARDS)
    os.makedirs(BUILD, exist_ok=True)
    with open(os.path.join(BUILD, 'test-results.tap'), 'w') as out:
        tally = Tally(out)
        tally.line('TAP version 13')
        pending = list(args.suites)
        running = []
        while pending or running:
            running = [t for t in running if t.is_alive()]
            while pending and len(running) < args.j:
                t = threading.Thread(target=run_suite,
                                     args=(pending.pop(0), tally))
                t.start()
                running.append(t)
            time.sleep(0.2)
        tally.line('1..%d' % tally.n)
        summary = '%d passed, %d failed' % (tally.passed, tally.failed)
        if tally.skipped:
            summary += ', %d skipped' % tally.skipped
        tally.line(summary)
    return 1 if tally.failed else 0


if __name__ == '__main__':
    sys.exit(main())
