# SPDX-License-Identifier: GPL-2.0
"""`make run` driven as a user drives it: its terminal through a pipe.

The run suite (`make run`, both driver sets) and the uboot suite (`make
run BOOT=tftp`) type at the board's console here.
"""

import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from board import log_problems  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


def free_tcp_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


# make run's variables (README): a test sets the ones it means, the
# caller's environment none of them.
RUN_VARS = ('BOARD', 'BOOT', 'DRIVERS', 'LAN', 'LAN_ADDR', 'WAN',
            'TELNET_PORT', 'HTTP_PORT', 'QEMU_ARGS')


class Console:
    """`make run`'s terminal: its stdout (QEMU's -nographic serial) and
    its stdin. @variables: make run's (RUN_VARS); QEMU's log
    (-d guest_errors,unimp) goes to a file of the console's own, read by
    log_problems() once closed."""

    def __init__(self, **variables):
        self.tmp = tempfile.TemporaryDirectory(prefix='ralink-fe-run-')
        self.qlog = os.path.join(self.tmp.name, 'qemu.log')
        env = {k: v for k, v in os.environ.items() if k not in RUN_VARS}
        env.update(variables)
        env['QEMU_ARGS'] = ('%s -d guest_errors,unimp -D %s' % (
            variables.get('QEMU_ARGS', ''), self.qlog)).strip()
        self.problems = None
        # A session of its own: close() ends make and what it started
        # (QEMU, which outlives a killed make).
        self.proc = subprocess.Popen(
            ['make', '--no-print-directory', 'run'], cwd=TOP, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True)
        self.buf = b''
        self.seq = 0

    def wait_for(self, pattern, timeout, start=0):
        rx = re.compile(pattern.encode())
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.buf, start)
            if m:
                return m
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError('no %r within %d s' % (pattern, timeout))
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if r:
                data = os.read(self.proc.stdout.fileno(), 65536)
                if not data:
                    raise RuntimeError('make run exited (%s) waiting for %r'
                                       % (self.proc.wait(), pattern))
                self.buf += data

    def type(self, text):
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def run(self, cmd, timeout=60):
        """Type @cmd at the shell; return its output."""
        self.seq += 1
        tag = 'RUN%d' % self.seq
        start = len(self.buf)
        self.type("echo '%s''B'; %s; echo '%s''E'\n" % (tag, cmd, tag))
        end = self.wait_for(r'%sE\r?\n' % tag, timeout, start)
        begin = self.wait_for(r'%sB\r?\n' % tag, 1, start)
        out = self.buf[begin.end():end.start()].decode('utf-8', 'replace')
        # What the user sees, less the colours (iproute2's on a terminal).
        return re.sub(r'\x1b\[[0-9;]*m', '', out).replace('\r\n', '\n')

    def text(self):
        return self.buf.decode('utf-8', 'replace')

    def poweroff(self, timeout=60):
        """Type `poweroff`; make run's exit status, None if it is still
        running after @timeout s."""
        self.type('poweroff\n')
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self):
        """End make run and everything it started, whatever state it is
        in (a QEMU left running would take a CPU from every later
        suite); keep what its QEMU log holds that LOG_ALLOWED does not
        explain."""
        if self.problems is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        try:
            with open(self.qlog, errors='replace') as f:
                self.problems = log_problems(f.read())
        except OSError as e:
            self.problems = ['no QEMU log: %s' % e]
        self.tmp.cleanup()

    def log_problems(self):
        """The QEMU log's unexplained lines (closing the console)."""
        self.close()
        return self.problems
