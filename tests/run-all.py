#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the test suites, number their TAP lines, print the tally.

    tests/run-all.py [-j N] [SUITE...]      (make test [SUITES="..."])

Suites are executables in tests/suites/ printing un-numbered TAP lines
(tests/lib/tap.py). They boot their own emulated boards, and run at once;
their lines are numbered in the order they arrive. The stream also goes
to build/test-results.tap.

Two kinds of suite share the host's CPUs:
- batch suites (BATCH) compute and do not mind waiting for a CPU: their
  boards run on the virtual clock, niced, within the board slots
  (tests/lib/board.py: Slot, BOARD_SLOTS = the host's CPUs), longest job
  first; `patches` builds a kernel tree and `model` fuzzes registers
  on the real clock (see its header), both niced. They all start at once.
- real-time suites (the others) have host-side peers or time what they
  see: they run one after the other, at normal priority, beside the
  batch suites, so that each gets a CPU when it wants one.
  (A DSA script's vCPU time goes up 40-50 % beside ours-eth, model and
  patches on two CPUs; holding one board slot for the real-time suites
  while they ran did not make the run shorter: NOTES.md.)

Progress: a suite may print "# progress DONE/TOTAL WHAT" (Suite.progress);
those lines are kept, and at least once a minute (PROGRESS_SECS) a comment
says how long the run has taken, which suites are running with their
progress, and the tally so far. Each suite's time ends its lines
("# SUITE: N s (host CPU M s)").
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import threading
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
BUILD = os.environ.get('BUILD', os.path.join(TOP, 'build'))

# Every suite, in the order they start: the longest first (times: README,
# "How long it takes").
SUITES = ['mainline-dsa', 'ours-dsa', 'esw-selftests', 'gsw-selftests',
          'ours-eth', 'model', 'qdma',
          'bench', 'patches', 'cm-region', 'model-net', 'wire', 'flower',
          'faults', 'board', 'router', 'ppe', 'fe-eth', 'esw-net',
          'gmac-net', 'esw-dsa', 'gsw-dsa', 'uboot', 'run']
# qdma's boards run on the virtual clock with no host peer (QEMU hubs, the
# switch's MIB): a batch suite, out of the real-time queue.
BATCH = {'mainline-dsa', 'ours-dsa', 'esw-selftests', 'gsw-selftests',
         'model', 'patches', 'qdma'}
NICE = {'patches': 10, 'model': 10}
PROGRESS_SECS = 60

RESULT = re.compile(r'^(not ok|ok) - (.*)$')
PROGRESS = re.compile(r'^# progress (\d+)/(\d+) (.*)$')


def fmt_secs(secs):
    return '%dm%02ds' % (secs // 60, secs % 60)


class Tally:
    def __init__(self, out):
        self.lock = threading.Lock()
        self.out = out
        self.n = self.passed = self.failed = self.skipped = 0
        self.start = time.monotonic()
        self.running = {}       # suite -> progress text ('' if none yet)
        self.finished = []
        self.failures = []      # the failed cases' lines, for the end

    def line(self, text):
        with self.lock:
            m = RESULT.match(text)
            if m:
                self.n += 1
                text = '%s %d - %s' % (m.group(1), self.n, m.group(2))
                if m.group(1) == 'not ok':
                    self.failed += 1
                    self.failures.append(text)
                elif ' # SKIP' in m.group(2):
                    self.skipped += 1
                else:
                    self.passed += 1
            self._write(text)

    def _write(self, text):
        sys.stdout.write(text + '\n')
        sys.stdout.flush()
        self.out.write(text + '\n')
        self.out.flush()

    def progress_line(self):
        with self.lock:
            running = ', '.join('%s%s' % (s, ' (%s)' % p if p else '')
                                for s, p in self.running.items())
            self._write('# progress %s: running %s; finished %d of %d '
                        'suites; %d passed, %d failed, %d skipped so far'
                        % (fmt_secs(time.monotonic() - self.start),
                           running or 'nothing', len(self.finished),
                           self.total, self.passed, self.failed,
                           self.skipped))


def run_suite(name, tally):
    path = os.path.join(TOP, 'tests', 'suites', name.replace('-', '_') + '.py')
    start = time.monotonic()
    with tally.lock:
        tally.running[name] = ''
    nice = NICE.get(name, 0)
    proc = subprocess.Popen([sys.executable, path], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=(lambda: os.nice(nice)) if nice
                            else None)
    # stderr in a thread, so that a suite writing much there never blocks.
    err = []
    reader = threading.Thread(target=lambda: err.extend(proc.stderr))
    reader.start()
    results = 0
    for line in proc.stdout:
        line = line.rstrip('\n')
        if RESULT.match(line):
            results += 1
        m = PROGRESS.match(line)
        if m:
            with tally.lock:
                tally.running[name] = '%s/%s %s' % m.groups()
        tally.line(line)
    # wait4: the suite's CPU time, with every process it waited for (its
    # QEMUs, builds and guest tools).
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    if proc.returncode or not results:
        tally.line('not ok - %s: suite ran to completion (exit status %d)'
                   % (name, proc.returncode))
        for e in ''.join(err).splitlines()[-20:]:
            tally.line('# ' + e)
    tally.line('# %s: %.0f s (host CPU %.0f s)'
               % (name, time.monotonic() - start,
                  usage.ru_utime + usage.ru_stime))
    with tally.lock:
        del tally.running[name]
        tally.finished.append(name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('suites', nargs='*', default=None,
                    help='suites to run (default: all): %s'
                    % ' '.join(SUITES))
    args = ap.parse_args()
    # make test SUITES="a b" passes them as one word
    suites = ' '.join(args.suites or []).split() or SUITES
    unknown = [s for s in suites if s not in SUITES]
    if unknown:
        ap.error('unknown suite %s (known: %s)' % (', '.join(unknown),
                                                  ' '.join(SUITES)))

    os.makedirs(BUILD, exist_ok=True)
    with open(os.path.join(BUILD, 'test-results.tap'), 'w') as out:
        tally = Tally(out)
        tally.total = len(suites)
        tally.line('TAP version 13')
        os.environ.setdefault('BOARD_SLOTS', str(os.cpu_count() or 1))
        running = []
        for name in [s for s in suites if s in BATCH]:
            running.append(threading.Thread(target=run_suite,
                                            args=(name, tally)))
            running[-1].start()
        realtime = [s for s in suites if s not in BATCH]
        current = None
        last = time.monotonic()
        while realtime or running:
            running = [t for t in running if t.is_alive()]
            if realtime and (current is None or not current.is_alive()):
                current = threading.Thread(target=run_suite,
                                           args=(realtime.pop(0), tally))
                current.start()
                running.append(current)
            if time.monotonic() - last >= PROGRESS_SECS:
                tally.progress_line()
                last = time.monotonic()
            time.sleep(0.2)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        tally.line('# all suites: %s (host CPU %s)'
                   % (fmt_secs(time.monotonic() - tally.start),
                      fmt_secs(usage.ru_utime + usage.ru_stime)))
        # The failed cases again at the end, where a log's tail shows them
        # (CI keeps only its tail)
        for text in tally.failures:
            tally.line('# failed: %s' % text)
        tally.line('1..%d' % tally.n)
        summary = '%d passed, %d failed' % (tally.passed, tally.failed)
        if tally.skipped:
            summary += ', %d skipped' % tally.skipped
        tally.line(summary)
    return 1 if tally.failed else 0


if __name__ == '__main__':
    sys.exit(main())
