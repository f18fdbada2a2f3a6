# SPDX-License-Identifier: GPL-2.0
"""Result lines of one test suite, as ../shared/TESTING.md describes them.

A suite prints `ok - <suite>: <name>` lines without numbers; tests/run-all
numbers them, because suites run in parallel.
"""

import sys
import traceback

from board import LOG_VERDICT


class Suite:
    def __init__(self, name):
        self.name = name
        self.failed = 0

    def _emit(self, line):
        sys.stdout.write(line + '\n')
        sys.stdout.flush()

    def result(self, ok, name, diag=None):
        self._emit('%s - %s: %s' % ('ok' if ok else 'not ok', self.name, name))
        if not ok:
            self.failed += 1
            for line in str(diag or '').splitlines()[-30:]:
                self.comment(line)
        return ok

    def ok(self, name, diag=None):
        return self.result(True, name, diag)

    def fail(self, name, diag=None):
        return self.result(False, name, diag)

    def skip(self, name, why):
        self._emit('ok - %s: %s # SKIP %s' % (self.name, name, why))

    def comment(self, text):
        for line in str(text).splitlines():
            self._emit('# ' + line)

    def progress(self, done, total, what):
        """A progress comment tests/run-all.py collects: @done of @total
        @what (e.g. scripts) finished."""
        self._emit('# progress %d/%d %s' % (done, total, what))

    def qemu_log(self, board, what):
        """A verdict on @board's QEMU log (after it closed): nothing that
        board.LOG_ALLOWED does not explain."""
        bad = board.log_problems()
        return self.result(not bad, '%s: %s' % (what, LOG_VERDICT),
                           '\n'.join(bad[:30]))

    def check(self, name, fn):
        """Run @fn(); a pass unless it raises. Its return value is logged."""
        try:
            out = fn()
        except Exception:
            return self.fail(name, traceback.format_exc())
        if out:
            self.comment(out)
        return self.ok(name)


class Prefixed:
    """A Suite whose results and comments name @board first."""

    def __init__(self, suite, board):
        self.suite, self.board = suite, board

    def result(self, ok, name, diag=None):
        return self.suite.result(ok, '%s: %s' % (self.board, name), diag)

    def ok(self, name, diag=None):
        return self.suite.ok('%s: %s' % (self.board, name), diag)

    def fail(self, name, diag=None):
        return self.suite.fail('%s: %s' % (self.board, name), diag)

    def skip(self, name, why):
        return self.suite.skip('%s: %s' % (self.board, name), why)

    def comment(self, text):
        return self.suite.comment(text)

    def check(self, name, fn):
        return self.suite.check('%s: %s' % (self.board, name), fn)

    def qemu_log(self, b, what):
        return self.suite.qemu_log(b, what)


class Deferred:
    """A Suite's results and comments kept, to be printed later with
    replay(): what a thread running beside others reports, its lines
    together."""

    def __init__(self):
        self.lines = []

    def result(self, ok, name, diag=None):
        self.lines.append(('result', (ok, name, diag)))
        return ok

    def fail(self, name, diag=None):
        return self.result(False, name, diag)

    def comment(self, text):
        self.lines.append(('comment', (text,)))

    def qemu_log(self, board, what):
        bad = board.log_problems()
        return self.result(not bad, '%s: %s' % (what, LOG_VERDICT),
                           '\n'.join(bad[:30]))

    def replay(self, suite):
        for fn, args in self.lines:
            getattr(suite, fn)(*args)
        self.lines = []
