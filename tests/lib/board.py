# SPDX-License-Identifier: GPL-2.0
"""Boot an emulated board in QEMU and talk to its serial console.

This is the one place that knows how to start a board: `make run` uses it
interactively (scripts/run.sh), the test suites through the Board class.
"""

import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
BUILD = os.environ.get('BUILD', os.path.join(TOP, 'build'))
QEMU = os.path.join(BUILD, 'qemu', 'qemu-system-mipsel')

BOARDS = {
    'gnubee-pc1': 'mt7621-gnubee-gb-pc1.dtb',
    'gnubee-pc2': 'mt7621-gnubee-gb-pc2.dtb',
}

# Printed by rootfs/init just before the first shell starts.
READY = 'ralink-fe: userspace ready'


def kernel_dir(variant='main'):
    return os.path.join(BUILD, 'kernel', variant)


def initrd_path(directory=BUILD, stem='rootfs', how='make rootfs'):
    """@directory/@stem.cpio (or .cpio.gz): an initramfs @how builds."""
    for name in (stem + '.cpio', stem + '.cpio.gz'):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError('no %s.cpio in %s: run %s' % (stem, directory,
                                                         how))


def dt_bootargs(dtb, variant='main'):
    """The command line in /chosen of @dtb, a DTB of kernel build
    @variant."""
    return subprocess.run(['fdtget', os.path.join(kernel_dir(variant), 'dtbs',
                                                  dtb), '/chosen', 'bootargs'],
                          check=True, capture_output=True,
                          text=True).stdout.strip()


def qemu_args(board='gnubee-pc1', variant='main', initrd=True, append=None,
              extra=(), dtb=None):
    """The QEMU command line for @board with kernel build @variant.

    @dtb names another DTB of the same kernel build (e.g. a test DT).
    """
    kdir = kernel_dir(variant)
    args = [QEMU, '-M', board, '-m', '512M', '-no-reboot',
            '-kernel', os.path.join(kdir, 'vmlinux'),
            '-dtb', os.path.join(kdir, 'dtbs', dtb or BOARDS[board])]
    if initrd:
        args += ['-initrd', initrd_path()]
    if append:
        args += ['-append', append]
    return args + list(extra)


class Timeout(Exception):
    pass


class Board:
    """One QEMU instance: console on a pipe, HMP monitor on a socket."""

    def __init__(self, board='gnubee-pc1', variant='main', initrd=True,
                 append=None, extra=(), log=None, dtb=None):
        self.tmp = tempfile.TemporaryDirectory(prefix='ralink-fe-')
        self.mon_path = os.path.join(self.tmp.name, 'monitor.sock')
        args = qemu_args(board, variant, initrd, append, extra, dtb)
        args += ['-display', 'none', '-serial', 'stdio',
                 '-monitor', 'unix:%s,server=on,wait=off' % self.mon_path,
                 '-d', 'guest_errors,unimp',
                 '-D', os.path.join(self.tmp.name, 'qemu.log')]
        self.args = args
        self.console = bytearray()
        self.cond = threading.Condition()
        self.log = log
        self.start_time = time.monotonic()
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.stderr = b''
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.err_reader = threading.Thread(target=self._read_err, daemon=True)
        self.err_reader.start()
        self.mon = None
        self.seq = 0

    # -- console ---------------------------------------------------------
    def _read(self):
        fd = self.proc.stdout.fileno()
        while True:
            data = os.read(fd, 65536)
            if not data:
                break
            if self.log:
                self.log.write(data)
                self.log.flush()
            with self.cond:
                self.console += data
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def _read_err(self):
        self.stderr = self.proc.stderr.read()

    def text(self, start=0):
        with self.cond:
            return self.console[start:].decode('utf-8', 'replace')

    def mark(self):
        with self.cond:
            return len(self.console)

    def wait_for(self, pattern, timeout, start=0):
        """Wait until @pattern (regex) appears in the console after @start;
        return the match. Raise Timeout, or RuntimeError if QEMU exits."""
        rx = re.compile(pattern.encode() if isinstance(pattern, str)
                        else pattern)
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                m = rx.search(self.console, start)
                if m:
                    return m
                if self.proc.poll() is not None:
                    raise RuntimeError('QEMU exited (status %s) waiting for %r'
                                       % (self.proc.returncode, pattern))
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.cond.wait(min(left, 1.0))
        # Outside the lock: the console reader goes on while gdb runs.
        self.dump_threads()
        raise Timeout('no %r within %.0f s' % (pattern, timeout))

    def dump_threads(self):
        """With BOARD_GDB set to a file name: append the console's end and
        the backtraces of QEMU's threads there, and what the gdb script
        BOARD_GDB_SCRIPT prints (e.g. tests/lib/qemu-state.gdb): a
        debugging aid for hangs."""
        out = os.environ.get('BOARD_GDB')
        if not out or self.proc.poll() is not None:
            return
        with open(out, 'a') as f:
            f.write('==> QEMU pid %d, %s; the console ends:\n%s\n'
                    % (self.proc.pid, time.ctime(),
                       self.text(max(0, self.mark() - 2000))))
            f.flush()
            cmd = ['gdb', '-p', str(self.proc.pid), '-batch',
                   '-ex', 'thread apply all bt']
            if os.environ.get('BOARD_GDB_SCRIPT'):
                cmd += ['-x', os.environ['BOARD_GDB_SCRIPT']]
            subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT,
                           timeout=120)

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def wait_ready(self, timeout=300):
        """Wait for the shell; return seconds since QEMU started."""
        self.wait_for(READY, timeout)
        # A command round trip proves the shell reads its input.
        self.run('true', timeout=60)
        return time.monotonic() - self.start_time

    def run(self, cmd, timeout=120):
        """Run @cmd in the guest shell; return (status, output)."""
        # A trailing newline would end the line before the end marker.
        cmd = cmd.strip()
        self.seq += 1
        tag = 'RFE%d' % self.seq
        start = self.mark()
        # The markers are split so that the echoed command never matches.
        self.write("echo '%s''B'; %s; echo '%s''E' $?\n" % (tag, cmd, tag))
        m = self.wait_for(r'%sE (\d+)\r?\n' % tag, timeout, start)
        b = self.wait_for(r'%sB\r?\n' % tag, 1, start)
        out = self.console[b.end():m.start()].decode('utf-8', 'replace')
        return int(m.group(1)), out.replace('\r\n', '\n')

    def check(self, cmd, timeout=120):
        """Run @cmd; return its output, raise if it fails."""
        status, out = self.run(cmd, timeout)
        if status:
            raise RuntimeError('%r failed (%d): %s' % (cmd, status, out))
        return out

    # -- monitor ---------------------------------------------------------
    def hmp(self, command, timeout=30):
        """Run an HMP monitor command; return its output."""
        if self.mon is None:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    self.mon = socket.socket(socket.AF_UNIX)
                    self.mon.connect(self.mon_path)
                    break
                except OSError:
                    self.mon.close()
                    self.mon = None
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            self._hmp_read_prompt(timeout)
        self.mon.sendall(command.encode() + b'\n')
        out = self._hmp_read_prompt(timeout)
        # Drop the echoed command line and terminal escapes.
        out = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', out)
        lines = out.replace('\r', '').split('\n')
        return '\n'.join(lines[1:]).strip()

    def _hmp_read_prompt(self, timeout):
        buf = b''
        deadline = time.monotonic() + timeout
        while not buf.endswith(b'(qemu) '):
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout('monitor did not answer')
            r, _, _ = select.select([self.mon], [], [], left)
            if r:
                data = self.mon.recv(65536)
                if not data:
                    raise RuntimeError('monitor closed')
                buf += data
        return buf[:-len(b'(qemu) ')].decode('utf-8', 'replace')

    # -- lifetime --------------------------------------------------------
    def alive(self):
        return self.proc.poll() is None

    def qemu_log(self):
        try:
            with open(os.path.join(self.tmp.name, 'qemu.log'), 'rb') as f:
                return f.read().decode('utf-8', 'replace')
        except OSError:
            return ''

    def wait_exit(self, timeout):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise Timeout('QEMU still running after %.0f s' % timeout)

    def close(self):
        if self.mon is not None:
            self.mon.close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.reader.join(5)
        self.err_reader.join(5)
        self.tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main(argv):
    """scripts/run.sh: boot @board interactively on this terminal."""
    board = argv[1] if len(argv) > 1 else 'gnubee-pc1'
    if board not in BOARDS:
        sys.exit('unknown board %s (known: %s)' % (board, ', '.join(BOARDS)))
    args = qemu_args(board) + ['-nographic'] + argv[2:]
    print('Booting %s; `poweroff` in the guest (or Ctrl-A x) ends QEMU.'
          % board, file=sys.stderr)
    os.execv(args[0], args)


if __name__ == '__main__':
    main(sys.argv)
